import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import {
  AUTHORITIES,
  controlChanges,
  environmentChanges,
  featureSettingsChanges,
  type ControlSnapshot,
  type EnvironmentSnapshot,
  type FeatureSettingsSnapshot,
} from '@vexil/core';
import type { Database } from './db/client';
import {
  environments,
  featureControls,
  features,
  organisations,
  projects,
  users,
  variants,
  versions,
} from './db/schema/index';
import { hashPassword, verifyPassword, type HashCost } from './lib/passwords';
import { newSdkKey } from './lib/tokens';

export const DEMO_DOMAIN = 'demo';
export const DEMO_ADMIN_EMAIL = 'admin@example.com';

export type SeedResult = {
  organisationDomain: string;
  adminEmail: string;
  /** Set only when this start generated the password; it is shown once and never stored in clear. */
  generatedPassword: string | null;
  created: boolean;
};

const SAMPLE_FEATURES = [
  { key: 'new-checkout', name: 'New checkout', description: 'The redesigned one-page checkout.' },
  { key: 'dark-mode', name: 'Dark mode', description: 'Lets users switch the site to a dark theme.' },
  { key: 'search-v2', name: 'Search v2', description: 'Search backed by the new ranking service.' },
];

/**
 * First start on an empty database: the Demo organisation and its admin, plus (VEXIL_DEMO) a sample project.
 * Later starts change nothing, except that a configured VEXIL_ADMIN_PASSWORD is made to work again.
 */
export async function seed(
  db: Database,
  options: { adminPassword: string | undefined; demo: boolean; hashCost: HashCost },
): Promise<SeedResult> {
  const existing = await db.select({ id: organisations.id }).from(organisations).limit(1);
  if (existing.length > 0) {
    if (options.adminPassword) await resetDemoAdminPassword(db, options.adminPassword, options.hashCost);
    return {
      organisationDomain: DEMO_DOMAIN,
      adminEmail: DEMO_ADMIN_EMAIL,
      generatedPassword: null,
      created: false,
    };
  }
  const generatedPassword = options.adminPassword ? null : randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(options.adminPassword ?? generatedPassword!, options.hashCost);

  const created = await db.transaction(async (tx) => {
    // Another instance may be seeding the same database: the unique domain decides who does it.
    const [organisation] = await tx
      .insert(organisations)
      .values({ name: 'Demo', domain: DEMO_DOMAIN })
      .onConflictDoNothing()
      .returning({ id: organisations.id });
    if (!organisation) return false;
    const now = new Date();
    const [admin] = await tx
      .insert(users)
      .values({
        organisationId: organisation.id,
        email: DEMO_ADMIN_EMAIL,
        firstName: 'Demo',
        lastName: 'Admin',
        passwordHash,
        authorities: [AUTHORITIES.ROLE_ORGANISATION_ADMIN],
        activated: true,
        activatedDate: now,
      })
      .returning({ id: users.id });
    if (options.demo) await seedSampleProject(tx as unknown as Database, organisation.id, admin!.id);
    return true;
  });
  return {
    organisationDomain: DEMO_DOMAIN,
    adminEmail: DEMO_ADMIN_EMAIL,
    generatedPassword: created ? generatedPassword : null,
    created,
  };
}

async function resetDemoAdminPassword(db: Database, password: string, hashCost: HashCost) {
  const [row] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .innerJoin(organisations, eq(organisations.id, users.organisationId))
    .where(and(eq(organisations.domain, DEMO_DOMAIN), eq(users.email, DEMO_ADMIN_EMAIL)))
    .limit(1);
  if (!row) return;
  if (row.passwordHash && (await verifyPassword(password, row.passwordHash))) return;
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password, hashCost) })
    .where(eq(users.id, row.id));
}

async function seedSampleProject(db: Database, organisationId: string, adminId: string) {
  const [project] = await db
    .insert(projects)
    .values({ organisationId, name: 'Sample Project', key: 'sp' })
    .returning({ id: projects.id });
  const envs = await db
    .insert(environments)
    .values([
      {
        organisationId,
        projectId: project!.id,
        name: 'Production',
        key: 'production',
        color: '#d0021b',
        production: true,
        sdkCanCreateFeatures: false,
        serverApiKey: newSdkKey('server'),
        jsApiKey: newSdkKey('js'),
      },
      {
        organisationId,
        projectId: project!.id,
        name: 'Development',
        key: 'development',
        color: '#1273de',
        production: false,
        sdkCanCreateFeatures: true,
        serverApiKey: newSdkKey('server'),
        jsApiKey: newSdkKey('js'),
      },
    ])
    .returning();
  // The first version of each environment's settings (docs/adr/0022-versions.md).
  await db.insert(versions).values(
    envs.map((env) => {
      const snapshot: EnvironmentSnapshot = {
        name: env.name,
        key: env.key,
        url: env.url ?? '',
        color: env.color,
        local: env.local,
        production: env.production,
        tags: env.tags,
        sdkCanCreateFeatures: env.sdkCanCreateFeatures,
      };
      return {
        organisationId,
        resourceType: 'environment' as const,
        resourceId: env.id,
        environmentId: env.id,
        number: 1,
        source: 'system' as const,
        changes: environmentChanges(null, snapshot),
        snapshot,
      };
    }),
  );
  for (const sample of SAMPLE_FEATURES) {
    const [feature] = await db
      .insert(features)
      .values({
        organisationId,
        projectId: project!.id,
        ...sample,
        maintainerId: adminId,
        createdById: adminId,
      })
      .returning({ id: features.id });
    await db.insert(variants).values([
      { organisationId, featureId: feature!.id, key: 'on', name: 'On', position: 0 },
      { organisationId, featureId: feature!.id, key: 'off', name: 'Off', position: 1 },
    ]);
    const control: ControlSnapshot = {
      enabled: false,
      offVariantKey: 'off',
      rules: [{ defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] }],
    };
    const controls = await db
      .insert(featureControls)
      .values(
        envs.map((env) => ({ organisationId, featureId: feature!.id, environmentId: env.id, ...control })),
      )
      .returning({ id: featureControls.id, environmentId: featureControls.environmentId });
    // Their first versions, as a feature created in the dashboard has (docs/adr/0022-versions.md).
    const settings: FeatureSettingsSnapshot = {
      ...sample,
      permanent: false,
      variants: [
        { key: 'on', name: 'On', description: '' },
        { key: 'off', name: 'Off', description: '' },
      ],
      tags: [],
      goals: [],
      jiraIssueKeys: [],
      maintainer: { id: adminId, name: 'Demo Admin' },
    };
    const first = { organisationId, featureId: feature!.id, number: 1, source: 'system' as const };
    await db.insert(versions).values([
      {
        ...first,
        resourceType: 'feature',
        resourceId: feature!.id,
        changes: featureSettingsChanges(null, settings),
        snapshot: settings,
      },
      ...controls.map((row) => ({
        ...first,
        resourceType: 'feature_control' as const,
        resourceId: row.id,
        environmentId: row.environmentId,
        changes: controlChanges(null, control),
        snapshot: control,
      })),
    ]);
  }
}
