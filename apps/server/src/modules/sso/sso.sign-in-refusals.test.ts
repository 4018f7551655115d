import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ssoAttempts, ssoConnections, users } from '../../db/schema/index';
import { secretBoxWithKey } from '../../lib/secret-box';
import { hashToken } from '../../lib/tokens';
import { callerFor, subscribe } from '../../../test/api';
import { startOidcProvider } from '../../../test/oidc-provider';
import {
  PUBLIC_HOST,
  REDIRECT_URI,
  configureSso,
  deliver,
  loginTokenOf,
  runSso,
  startSso,
} from '../../../test/sso';
import { setUpSsoSignIn, h, provider, admin, member, memberCount, failure } from './sso.sign-in.fixture';

setUpSsoSignIn();

describe('refusals', () => {
  it('refuses an e-mail of a domain the organisation does not allow, creating nobody', async () => {
    const count = await memberCount(admin.organisationId);
    const run = await runSso(h, provider, 'acme', 'mallory');
    expect(failure(run.location)).toBe(`http://${PUBLIC_HOST}/acme/login?sso=not-allowed`);
    expect(await memberCount(admin.organisationId)).toBe(count);
  });

  it('refuses an e-mail the provider says is not verified, and an answer without an e-mail', async () => {
    for (const login of ['unverified', 'anonymous']) {
      const run = await runSso(h, provider, 'acme', login);
      expect(failure(run.location), login).toBe(`http://${PUBLIC_HOST}/acme/login?sso=not-allowed`);
    }
    expect(await member(admin.organisationId, 'eve@example.com')).toBeUndefined();
  });

  it('refuses an ID token issued to another client (wrong audience), even validly signed', async () => {
    provider.tamperIdTokens({ claims: (claims) => ({ ...claims, aud: 'other-app' }) });
    const run = await runSso(h, provider, 'acme', 'grace');
    expect(failure(run.location)).toBe(`http://${PUBLIC_HOST}/acme/login?sso=invalid`);
    expect(await member(admin.organisationId, 'grace@example.com')).toBeUndefined();
  });

  it('refuses an ID token from another issuer, even validly signed', async () => {
    provider.tamperIdTokens({ claims: (claims) => ({ ...claims, iss: 'https://evil.example.com' }) });
    const run = await runSso(h, provider, 'acme', 'grace');
    expect(failure(run.location)).toBe(`http://${PUBLIC_HOST}/acme/login?sso=invalid`);
  });

  it('refuses an ID token signed with a key the provider does not publish, or for another nonce', async () => {
    provider.tamperIdTokens({ signWith: 'other-key' });
    expect(failure((await runSso(h, provider, 'acme', 'grace')).location)).toBe(
      `http://${PUBLIC_HOST}/acme/login?sso=invalid`,
    );
    provider.tamperIdTokens({ claims: (claims) => ({ ...claims, nonce: 'replayed-nonce' }) });
    expect(failure((await runSso(h, provider, 'acme', 'grace')).location)).toBe(
      `http://${PUBLIC_HOST}/acme/login?sso=invalid`,
    );
    provider.tamperIdTokens({
      claims: (claims) => ({ ...claims, exp: Math.floor(Date.now() / 1000) - 3600 }),
    });
    expect(failure((await runSso(h, provider, 'acme', 'grace')).location)).toBe(
      `http://${PUBLIC_HOST}/acme/login?sso=invalid`,
    );
    expect(await member(admin.organisationId, 'grace@example.com')).toBeUndefined();
  });

  it('refuses a replayed state: the answer works once', async () => {
    const run = await runSso(h, provider, 'acme', 'grace');
    loginTokenOf(run.location);
    const replay = await deliver(h, run.answer, run.cookie);
    expect(failure(replay)).toBe(`http://${PUBLIC_HOST}/login?sso=expired`);
  });

  it('refuses an expired state', async () => {
    const started = await startSso(h, 'acme');
    const answer = await provider.signIn(started.location.href, 'grace');
    await h.database.db
      .update(ssoAttempts)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(ssoAttempts.stateHash, hashToken(started.state)));
    expect(failure(await deliver(h, answer, started.cookie))).toBe(
      `http://${PUBLIC_HOST}/acme/login?sso=expired`,
    );
    expect(await h.database.db.select().from(ssoAttempts)).toEqual([]);
  });

  it('refuses an answer brought by another browser than the one that started (no state cookie)', async () => {
    const started = await startSso(h, 'acme');
    const answer = await provider.signIn(started.location.href, 'grace');
    expect(failure(await deliver(h, answer, undefined))).toBe(`http://${PUBLIC_HOST}/login?sso=expired`);
    expect(failure(await deliver(h, answer, 'someone-elses-state'))).toBe(
      `http://${PUBLIC_HOST}/login?sso=expired`,
    );
    // The browser that started it still can.
    loginTokenOf(await deliver(h, answer, started.cookie));
  });

  it('says the sign-in was cancelled when the provider answers access_denied', async () => {
    const run = await runSso(h, provider, 'acme', 'grace', { cancel: true });
    expect(run.answer.searchParams.get('error')).toBe('access_denied');
    expect(failure(run.location)).toBe(`http://${PUBLIC_HOST}/acme/login?sso=cancelled`);
  });

  it('refuses a newcomer when the plan has no seat left, but still signs members in', async () => {
    await h
      .createUser(admin.organisationId, 'acme')
      .then((user) =>
        h.database.db.update(users).set({ email: 'ada@example.com' }).where(eq(users.id, user.id)),
      );
    await subscribe(h, admin.organisationId, {
      maxOrganisationUsers: await memberCount(admin.organisationId),
    });
    expect(failure((await runSso(h, provider, 'acme', 'grace')).location)).toBe(
      `http://${PUBLIC_HOST}/acme/login?sso=not-allowed`,
    );
    expect(await member(admin.organisationId, 'grace@example.com')).toBeUndefined();
    loginTokenOf((await runSso(h, provider, 'acme', 'ada')).location);
  });

  it('refuses a member who was removed (archived)', async () => {
    const user = await h.createUser(admin.organisationId, 'acme');
    await h.database.db
      .update(users)
      .set({ email: 'ada@example.com', archived: true })
      .where(eq(users.id, user.id));
    expect(failure((await runSso(h, provider, 'acme', 'ada')).location)).toBe(
      `http://${PUBLIC_HOST}/acme/login?sso=not-allowed`,
    );
  });

  it('says single sign-on is not set up for an organisation without it, or an unknown one', async () => {
    await h.createOrganisation({ domain: 'plain' });
    expect(failure((await startSso(h, 'plain')).location)).toBe(
      `http://${PUBLIC_HOST}/plain/login?sso=not-configured`,
    );
    expect(failure((await startSso(h, 'nobody')).location)).toBe(
      `http://${PUBLIC_HOST}/login?sso=not-configured`,
    );
    expect(failure((await startSso(h, '')).location)).toBe(`http://${PUBLIC_HOST}/login?sso=not-configured`);
  });

  it('says the provider is unavailable when the stored secret can no longer be decrypted', async () => {
    await h.database.db
      .update(ssoConnections)
      .set({ clientSecretEncrypted: secretBoxWithKey(Buffer.alloc(32, 1)).encrypt('client-s3cret-value') })
      .where(eq(ssoConnections.organisationId, admin.organisationId));
    expect(failure((await startSso(h, 'acme')).location)).toBe(
      `http://${PUBLIC_HOST}/acme/login?sso=unavailable`,
    );
  });

  it('says the provider is unavailable when it cannot be reached', async () => {
    const gone = await startOidcProvider({
      clients: [{ client_id: 'vexil', redirect_uris: [REDIRECT_URI] }],
      accounts: [],
    });
    const other = await h.createOrganisation({ domain: 'gone' });
    await configureSso(callerFor(h.app, await h.login(other)), gone, { clientSecret: '' });
    await gone.close();
    expect(failure((await startSso(h, 'gone')).location)).toBe(
      `http://${PUBLIC_HOST}/gone/login?sso=unavailable`,
    );
  });
});
