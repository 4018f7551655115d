/**
 * What the single sign-on tests share: an OpenID provider with its accounts, a harness whose logs are kept,
 * and an organisation `acme` with single sign-on configured for that provider.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { users } from '../../db/schema/index';
import { callerFor, type Caller } from '../../../test/api';
import { createHarness, type Harness, type TestUser } from '../../../test/helpers';
import { captureLogs } from '../../../test/logs';
import { startOidcProvider, type OidcProviderHandle } from '../../../test/oidc-provider';
import { REDIRECT_URI, TEST_SECRETS_KEY, configureSso } from '../../../test/sso';

const ADA = {
  sub: 'ada',
  email: 'Ada@Example.COM',
  email_verified: true,
  given_name: 'Ada',
  family_name: 'Lovelace',
};
const GRACE = {
  sub: 'grace',
  email: 'grace@example.com',
  email_verified: true,
  name: 'Grace Brewster Hopper',
};
const MALLORY = { sub: 'mallory', email: 'mallory@elsewhere.org', email_verified: true, name: 'Mallory' };
const UNVERIFIED = { sub: 'unverified', email: 'eve@example.com', email_verified: false, name: 'Eve' };
const NO_EMAIL = { sub: 'anonymous', name: 'Anonymous' };

export let h: Harness;
export let provider: OidcProviderHandle;
export let logs: ReturnType<typeof captureLogs>;
export let admin: TestUser;
export let adminCall: Caller;

export async function member(organisationId: string, email: string) {
  const [row] = await h.database.db
    .select()
    .from(users)
    .where(and(eq(users.organisationId, organisationId), eq(users.email, email)));
  return row;
}

export async function memberCount(organisationId: string) {
  return (await h.database.db.select().from(users).where(eq(users.organisationId, organisationId))).length;
}

export function failure(location: URL) {
  return `${location.origin}${location.pathname}?${location.searchParams.toString()}`;
}

/**
 * Starts the provider and the harness for the calling test file, with its own log capture, and starts each
 * of its tests from a fresh organisation `acme` and a provider that does not tamper with its ID tokens.
 */
export function setUpSsoSignIn(): void {
  beforeAll(async () => {
    // Each file reads the logs of its own harness (the module is shared by the files of a worker).
    logs = captureLogs('info');
    provider = await startOidcProvider({
      clients: [
        { client_id: 'vexil', client_secret: 'client-s3cret-value', redirect_uris: [REDIRECT_URI] },
        { client_id: 'other-app', client_secret: 'other-s3cret-value', redirect_uris: [REDIRECT_URI] },
      ],
      accounts: [ADA, GRACE, MALLORY, UNVERIFIED, NO_EMAIL],
    });
    h = await createHarness(
      { OUTGOING_ALLOW_PRIVATE: 'on', SECRETS_KEY: TEST_SECRETS_KEY },
      { logger: logs.logger },
    );
  });
  afterAll(async () => {
    await h?.close();
    await provider?.close();
  });
  beforeEach(async () => {
    await h.database.reset();
    provider.tamperIdTokens(null);
    admin = await h.createOrganisation({ domain: 'acme' });
    adminCall = callerFor(h.app, await h.login(admin));
    await configureSso(adminCall, provider);
  });
}
