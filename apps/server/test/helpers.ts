import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { AUTHORITIES } from '@vexil/core';
import { buildApp, type BuildAppOptions } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { organisations, users } from '../src/db/schema/index';
import { openDatabase } from '../src/db/client';
import { hashPassword } from '../src/lib/passwords';
import { seed } from '../src/seed';
import { openTestDatabase, type TestDatabase } from './test-database';

export type TestApp = Awaited<ReturnType<typeof buildApp>>;

let webDist: string | null = null;
/** A stand-in build of the dashboard so the history fallback has an index.html to serve. */
function testWebDist(): string {
  if (!webDist) {
    webDist = mkdtempSync(path.join(os.tmpdir(), 'vexil-web-'));
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><title>Vexil</title><div id="root"></div>',
    );
  }
  return webDist;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    PASSWORD_HASH_COST: 'test',
    LOG_LEVEL: 'silent',
    VEXIL_DEMO: 'off',
    BASE_DOMAIN: 'vexil.test',
    PUBLIC_URL: 'http://vexil.test',
    WEB_DIST: testWebDist(),
    // The queued e-mails are sealed with the secret box: no test writes DATA_DIR/secrets.key.
    SECRETS_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
    ...env,
  });
}

export type TestUser = {
  id: string;
  email: string;
  password: string;
  organisationId: string;
  domain: string;
};
export type Harness = {
  app: TestApp;
  database: TestDatabase;
  config: Config;
  /** Creates an organisation with one user of the given authority. */
  createOrganisation(options?: { domain?: string; name?: string; authority?: string }): Promise<TestUser>;
  createUser(
    organisationId: string,
    domain: string,
    options?: { authority?: string; activated?: boolean },
  ): Promise<TestUser>;
  /** Signs a user in through the real endpoint and returns the session token. */
  login(user: TestUser): Promise<string>;
  close(): Promise<void>;
};

export async function createHarness(
  env: Record<string, string> = {},
  options: Pick<
    BuildAppOptions,
    'ingestion' | 'logger' | 'billingProvider' | 'now' | 'integrations' | 'mail'
  > = {},
): Promise<Harness> {
  const database = await openTestDatabase();
  const config = testConfig(env);
  const app = await buildApp({ ...options, config, database, logger: options.logger ?? false });
  await app.ready();

  async function createUser(
    organisationId: string,
    domain: string,
    options: { authority?: string; activated?: boolean } = {},
  ): Promise<TestUser> {
    const email = `user-${randomBytes(4).toString('hex')}@example.com`;
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const [row] = await database.db
      .insert(users)
      .values({
        organisationId,
        email,
        firstName: 'Test',
        lastName: 'User',
        passwordHash: await hashPassword(password, 'test'),
        authorities: [options.authority ?? AUTHORITIES.ROLE_ORGANISATION_ADMIN],
        activated: options.activated ?? true,
        activatedDate: new Date(),
      })
      .returning({ id: users.id });
    return { id: row!.id, email, password, organisationId, domain };
  }

  return {
    app,
    database,
    config,
    createUser,
    async createOrganisation(options = {}) {
      const domain = options.domain ?? `org-${randomBytes(4).toString('hex')}`;
      const [org] = await database.db
        .insert(organisations)
        .values({ name: options.name ?? `Org ${domain}`, domain })
        .returning({ id: organisations.id });
      return createUser(org!.id, domain, options.authority ? { authority: options.authority } : {});
    },
    async login(user) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/authenticate',
        remoteAddress: randomIp(),
        payload: { username: user.email, password: user.password, domain: user.domain, rememberMe: false },
      });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { id_token: string }).id_token;
    },
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}

/** Seeds the demo organisation the way a first start does. */
export async function seedDemo(harness: Harness, password = 'demo-password') {
  return seed(harness.database.db, { adminPassword: password, demo: true, hashCost: 'test' });
}

/** A documentation-range address per call keeps the per-IP login limit out of unrelated tests. */
export function randomIp(): string {
  const b = randomBytes(2);
  return `198.51.${b[0]}.${b[1]}`;
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

export function json<T = unknown>(res: LightMyRequestResponse): T {
  return res.json() as T;
}

/** A second instance of the app on the harness's PostgreSQL database (multi-instance tests), ready. */
export async function secondInstance(h: Harness): Promise<TestApp> {
  const app = await buildApp({
    config: testConfig(),
    database: openDatabase({ kind: 'postgres', url: h.database.url!, max: 4 }),
    logger: false,
  });
  await app.ready();
  return app;
}
