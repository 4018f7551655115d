/**
 * The organisations the battery measures. No API creates an organisation or a teammate, so they are
 * inserted through the server's own schema and seed before the product first starts; everything
 * else (projects, features, targeting) goes through the real dashboard API as each organisation's
 * admin.
 */
import { AUTHORITIES, AUTHORITY_NAMES } from '@vexil/core';
import { organisations, users } from '@vexil/server/src/db/schema/index';
import { hashPassword } from '@vexil/server/src/lib/passwords';
import { seed } from '@vexil/server/src/seed';
import { apiOk, inPool, signIn } from './client';
import type { Store } from './store';

export const PASSWORD = 'battery-password-1';
/** R1's three organisations; `tenant-a` floods events and `tenant-b` is the quiet one. */
export const TENANTS = ['tenant-a', 'tenant-b', 'tenant-c'] as const;
export const PERMISSIONS_DOMAIN = 'perms';
export const LOGIN_DOMAIN = 'login';
/** Rows that store events, each with features of its own. */
/** Features per row that events name; each row has its own (`r2-0`…`r2-4`), so rows never mix. */
export const ROW_FEATURES = 5;
export const EVENT_ROWS = ['r2', 'r3', 'r4', 'r5', 's1'] as const;

export const ownerOf = (domain: string) => `owner@${domain}.example.com`;
export const roleUser = (authority: string) =>
  `${authority.toLowerCase().replace(/_/g, '-')}@${PERMISSIONS_DOMAIN}.example.com`;

export type SdkEnvironment = {
  id: string;
  key: string;
  apiKey: string;
  jsApiKey: string;
  production: boolean;
};
export type Tenant = {
  domain: string;
  token: string;
  production: SdkEnvironment;
  development: SdkEnvironment;
  /** A production control the dashboard-write loops toggle. */
  writable: { id: string; rules: unknown[] };
};

export const RULES = [
  {
    defaultRule: false,
    audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
    variantSplits: [{ variantKey: 'on', split: 100 }],
  },
  {
    defaultRule: true,
    audience: null,
    variantSplits: [
      { variantKey: 'off', split: 50 },
      { variantKey: 'on', split: 50 },
    ],
  },
];

/** Migrates and seeds the empty database, then adds the battery's organisations and users. */
export async function prepare(store: Store): Promise<void> {
  const handle = store.open();
  try {
    await handle.migrate();
    await seed(handle.db, { adminPassword: PASSWORD, demo: false, hashCost: 'standard' });
    // One standard-cost hash for every account: they all sign in with the same password.
    const passwordHash = await hashPassword(PASSWORD, 'standard');
    const person = (organisationId: string, email: string, authority: string) => ({
      organisationId,
      email,
      firstName: 'Battery',
      lastName: authority,
      passwordHash,
      authorities: [authority],
      activated: true,
      activatedDate: new Date(),
    });
    for (const domain of [...TENANTS, PERMISSIONS_DOMAIN, LOGIN_DOMAIN]) {
      const [organisation] = await handle.db
        .insert(organisations)
        .values({ name: `Battery ${domain}`, domain })
        .returning({ id: organisations.id });
      const rows = [person(organisation!.id, ownerOf(domain), AUTHORITIES.ROLE_ORGANISATION_ADMIN)];
      if (domain === PERMISSIONS_DOMAIN)
        rows.push(
          ...AUTHORITY_NAMES.map((authority) => person(organisation!.id, roleUser(authority), authority)),
        );
      await handle.db.insert(users).values(rows);
    }
  } finally {
    await handle.close();
  }
}

type CreatedFeature = { id: string; key: string; controls: Record<string, { id: string }> };
type CreatedProject = { environments: (SdkEnvironment & { production: boolean })[] };

/** Signs in as each tenant's admin and builds its project: `flags` targeted flags and the rows' features. */
export async function setUpTenants(base: string, flags: number): Promise<Tenant[]> {
  return Promise.all(
    TENANTS.map(async (domain) => {
      const token = await signIn(base, domain, ownerOf(domain), PASSWORD);
      const project = await apiOk<CreatedProject>(base, token, 'POST', '/api/v1/projects', {
        name: 'Battery',
        key: 'bat',
      });
      const environment = (key: string) => {
        const found = project.environments.find((e) => e.key === key)!;
        return {
          id: found.id,
          key,
          apiKey: found.apiKey,
          jsApiKey: found.jsApiKey,
          production: found.production,
        };
      };
      const keys = [
        ...Array.from({ length: flags }, (_, i) => `flag-${i}`),
        ...EVENT_ROWS.flatMap((row) => Array.from({ length: ROW_FEATURES }, (_, i) => `${row}-${i}`)),
      ];
      const created = await inPool(keys, 8, (key) =>
        apiOk<CreatedFeature>(base, token, 'POST', '/api/v1/projects/bat/features', {
          name: key,
          key,
        }),
      );
      const targeted = created.filter((feature) => feature.key.startsWith('flag-'));
      await inPool(targeted, 8, (feature) =>
        apiOk(base, token, 'PUT', '/api/v1/feature-controls', {
          id: feature.controls.production!.id,
          enabled: true,
          offVariantKey: 'off',
          rules: RULES,
        }),
      );
      return {
        domain,
        token,
        production: environment('production'),
        development: environment('development'),
        writable: { id: targeted[0]!.controls.production!.id, rules: RULES },
      };
    }),
  );
}
