import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { AUTHORITIES, type InvitesResult } from '@vexil/core';
import { memberIdentities, users } from '../../db/schema/index';
import { callerFor, type Caller } from '../../../test/api';
import { createHarness, type Harness, type TestUser } from '../../../test/helpers';
import { startOidcProvider, type OidcAccount, type OidcProviderHandle } from '../../../test/oidc-provider';
import {
  PUBLIC_HOST,
  REDIRECT_URI,
  TEST_SECRETS_KEY,
  configureSso,
  runSso,
  signedInAs,
} from '../../../test/sso';

/*
 * Who single sign-on signs in (docs/adr/0014-single-sign-on.md): a member is bound to the provider's
 * (issuer, subject) on their first sign-in through it, which only a verified e-mail may link; then
 * only that identity signs them in. A removed member stays out until invited again.
 */

let h: Harness;
let provider: OidcProviderHandle;
let second: OidcProviderHandle;
let admin: TestUser;
let adminCall: Caller;

const CLIENTS = [{ client_id: 'vexil', client_secret: 'client-s3cret-value', redirect_uris: [REDIRECT_URI] }];
const NOT_ALLOWED = `http://${PUBLIC_HOST}/acme/login?sso=not-allowed`;

beforeAll(async () => {
  [provider, second] = await Promise.all([
    startOidcProvider({ clients: CLIENTS, accounts: [] }),
    startOidcProvider({ clients: CLIENTS, accounts: [] }),
  ]);
  h = await createHarness({ OUTGOING_ALLOW_PRIVATE: 'on', SECRETS_KEY: TEST_SECRETS_KEY });
});
afterAll(async () => {
  await h?.close();
  await provider?.close();
  await second?.close();
});
beforeEach(async () => {
  await h.database.reset();
  for (const p of [provider, second]) p.accounts.clear();
  admin = await h.createOrganisation({ domain: 'acme' });
  adminCall = callerFor(h.app, await h.login(admin));
  await configureSso(adminCall, provider);
});

function account(p: OidcProviderHandle, claims: OidcAccount) {
  p.accounts.set(claims.sub, claims);
}

function failure(location: URL) {
  return `${location.origin}${location.pathname}?${location.searchParams.toString()}`;
}

async function memberIds(organisationId: string) {
  const rows = await h.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.organisationId, organisationId));
  return rows.map((row) => row.id).sort();
}

async function signsInAs(p: OidcProviderHandle, sub: string) {
  return (await signedInAs(h, (await runSso(h, p, 'acme', sub)).location)).principalUser;
}

describe('the e-mail links a first sign-in only when the provider verified it', () => {
  it('refuses an identity without email_verified whose e-mail is the admin’s, and creates nobody', async () => {
    account(provider, { sub: 'impostor', email: admin.email, name: 'Not the admin' });
    const before = await memberIds(admin.organisationId);
    expect(failure((await runSso(h, provider, 'acme', 'impostor')).location)).toBe(NOT_ALLOWED);
    // A newcomer without the claim does not join either.
    account(provider, { sub: 'newcomer', email: 'newcomer@example.com' });
    expect(failure((await runSso(h, provider, 'acme', 'newcomer')).location)).toBe(NOT_ALLOWED);
    expect(await memberIds(admin.organisationId)).toEqual(before);
    expect(await h.database.db.select().from(memberIdentities)).toEqual([]);
  });

  it('refuses email_verified: false for an existing member’s e-mail', async () => {
    account(provider, { sub: 'impostor', email: admin.email, email_verified: false });
    expect(failure((await runSso(h, provider, 'acme', 'impostor')).location)).toBe(NOT_ALLOWED);
  });

  it('binds the member on a verified first sign-in; another identity with that e-mail is refused', async () => {
    account(provider, { sub: 'admin-sub', email: admin.email, email_verified: true });
    expect((await signsInAs(provider, 'admin-sub')).id).toBe(admin.id);
    const [bound] = await h.database.db.select().from(memberIdentities);
    expect(bound).toMatchObject({ userId: admin.id, issuer: provider.issuer, subject: 'admin-sub' });
    // Even verified, a second identity at the same provider does not take the bound member over.
    account(provider, { sub: 'recycled', email: admin.email, email_verified: true });
    expect(failure((await runSso(h, provider, 'acme', 'recycled')).location)).toBe(NOT_ALLOWED);
    // Once bound, the identity signs in whatever the e-mail claim says.
    account(provider, { sub: 'admin-sub', email: admin.email });
    expect((await signsInAs(provider, 'admin-sub')).id).toBe(admin.id);
  });
});

describe('afterwards only (issuer, subject) counts', () => {
  it('keeps a changed e-mail at the provider on its member: it does not move to the member of the new e-mail', async () => {
    const other = await h.createUser(admin.organisationId, 'acme', {
      authority: AUTHORITIES.ROLE_ORGANISATION_READONLY_USER,
    });
    account(provider, { sub: 'ada', email: 'ada@example.com', email_verified: true, name: 'Ada' });
    const ada = await signsInAs(provider, 'ada');
    expect(ada).toMatchObject({
      email: 'ada@example.com',
      authorities: [AUTHORITIES.ROLE_ORGANISATION_EDITOR],
    });
    account(provider, { sub: 'ada', email: other.email, email_verified: true, name: 'Ada' });
    const again = await signsInAs(provider, 'ada');
    expect(again.id).toBe(ada.id);
    expect(again.email).toBe('ada@example.com');
    expect(again.id).not.toBe(other.id);
  });

  it('tells two providers apart: the same subject at another issuer is another identity', async () => {
    account(provider, { sub: 'shared-sub', email: 'ada@example.com', email_verified: true });
    const ada = await signsInAs(provider, 'shared-sub');
    const grace = await h.createUser(admin.organisationId, 'acme');
    // The organisation moves to another provider, whose subject happens to be the same string.
    await configureSso(adminCall, second);
    account(second, { sub: 'shared-sub', email: grace.email, email_verified: true });
    expect((await signsInAs(second, 'shared-sub')).id).toBe(grace.id);
    // Ada links at the new provider by her verified e-mail, and each identity keeps its member.
    account(second, { sub: 'ada-at-second', email: 'ada@example.com', email_verified: true });
    expect((await signsInAs(second, 'ada-at-second')).id).toBe(ada.id);
    const bindings = await h.database.db
      .select({
        userId: memberIdentities.userId,
        issuer: memberIdentities.issuer,
        subject: memberIdentities.subject,
      })
      .from(memberIdentities)
      .where(eq(memberIdentities.organisationId, admin.organisationId));
    expect(bindings).toEqual(
      expect.arrayContaining([
        { userId: ada.id, issuer: provider.issuer, subject: 'shared-sub' },
        { userId: grace.id, issuer: second.issuer, subject: 'shared-sub' },
        { userId: ada.id, issuer: second.issuer, subject: 'ada-at-second' },
      ]),
    );
    expect(bindings).toHaveLength(3);
  });
});

describe('a removed member stays out', () => {
  async function remove(id: string) {
    const res = await adminCall('DELETE', `/api/v1/users/${id}`);
    expect(res.statusCode, res.body).toBe(204);
  }

  it('is not re-created by single sign-on, by identity or by e-mail, until invited again', async () => {
    account(provider, { sub: 'ada', email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' });
    const ada = await signsInAs(provider, 'ada');
    await remove(ada.id);
    const before = await memberIds(admin.organisationId);
    expect(failure((await runSso(h, provider, 'acme', 'ada')).location)).toBe(NOT_ALLOWED);
    // Neither with another e-mail at the provider, nor as another identity with her e-mail.
    account(provider, { sub: 'ada', email: 'ada.l@example.com', email_verified: true });
    expect(failure((await runSso(h, provider, 'acme', 'ada')).location)).toBe(NOT_ALLOWED);
    account(provider, { sub: 'ada-again', email: 'ada@example.com', email_verified: true });
    expect(failure((await runSso(h, provider, 'acme', 'ada-again')).location)).toBe(NOT_ALLOWED);
    expect(await memberIds(admin.organisationId)).toEqual(before);

    // Invited again, she joins with the invited role.
    const invited = await adminCall('POST', '/api/v1/invites', [{ email: 'ada@example.com' }]);
    expect(invited.statusCode, invited.body).toBe(201);
    const pending = invited.json<InvitesResult>().invitations[0]!;
    const back = await signsInAs(provider, 'ada-again');
    expect(back).toMatchObject({
      id: pending.id,
      authorities: [AUTHORITIES.ROLE_ORGANISATION_READONLY_USER],
    });
  });

  it('keeps out a removed member who only ever signed in with a password', async () => {
    const member = await h.createUser(admin.organisationId, 'acme');
    await remove(member.id);
    account(provider, { sub: 'member', email: member.email, email_verified: true });
    expect(failure((await runSso(h, provider, 'acme', 'member')).location)).toBe(NOT_ALLOWED);
    const [row] = await h.database.db
      .select()
      .from(users)
      .where(and(eq(users.organisationId, admin.organisationId), eq(users.email, member.email)));
    expect(row).toBeUndefined();
  });

  it('does not keep out someone whose invitation was only cancelled', async () => {
    const invited = await adminCall('POST', '/api/v1/invites', [{ email: 'grace@example.com' }]);
    await remove(invited.json<InvitesResult>().invitations[0]!.id);
    account(provider, { sub: 'grace', email: 'grace@example.com', email_verified: true });
    expect((await signsInAs(provider, 'grace')).authorities).toEqual([AUTHORITIES.ROLE_ORGANISATION_EDITOR]);
  });
});
