import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  AUTHORITIES,
  SSO_ADMINS_ONLY,
  escapeMarkdown,
  ssoRequiredMessage,
  type SsoConnection,
  type SsoSettings,
} from '@vexil/core';
import { ssoConnections } from '../../db/schema/index';
import { secretBoxWithKey } from '../../lib/secret-box';
import { auditTrail, callerFor, createTeam, type Team } from '../../../test/api';
import { createHarness, randomIp, type Harness } from '../../../test/helpers';
import { startOidcProvider, type OidcProviderHandle } from '../../../test/oidc-provider';
import { REDIRECT_URI, TEST_SECRETS_KEY, configureSso, connectionInput } from '../../../test/sso';
import { HTTPS_ISSUER_MESSAGE, UNREADABLE_SECRET_MESSAGE } from './sso.service';

const SECRET = 'client-s3cret-value';

let h: Harness;
let provider: OidcProviderHandle;
let team: Team;

beforeAll(async () => {
  provider = await startOidcProvider({
    clients: [{ client_id: 'vexil', client_secret: SECRET, redirect_uris: [REDIRECT_URI] }],
    accounts: [],
  });
  h = await createHarness({ OUTGOING_ALLOW_PRIVATE: 'on', SECRETS_KEY: TEST_SECRETS_KEY });
});
afterAll(async () => {
  await h?.close();
  await provider?.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
});

async function settings(call = team.admin.call): Promise<SsoSettings> {
  const res = await call('GET', '/api/v1/sso');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SsoSettings>();
}

async function storedRow(organisationId: string) {
  const [row] = await h.database.db
    .select()
    .from(ssoConnections)
    .where(eq(ssoConnections.organisationId, organisationId));
  return row;
}

describe('GET /api/v1/sso', () => {
  it('answers no connection and the redirect URI to register until one is set up', async () => {
    expect(await settings()).toEqual({ connection: null, redirectUri: REDIRECT_URI });
  });
});

describe('PUT /api/v1/sso', () => {
  it('saves the connection once the issuer’s discovery document is read, and never answers the secret', async () => {
    const discoveries = provider.requests.get('/.well-known/openid-configuration') ?? 0;
    const res = await configureSso(team.admin.call, provider, {
      displayName: '  Acme ID  ',
      allowedDomains: ['Example.com', 'example.com', 'acme.io'],
    });
    const saved = res.json<SsoConnection>();
    expect(saved).toEqual({
      displayName: 'Acme ID',
      issuer: provider.issuer,
      clientId: 'vexil',
      hasClientSecret: true,
      allowedDomains: ['example.com', 'acme.io'],
      defaultRole: AUTHORITIES.ROLE_ORGANISATION_EDITOR,
      required: false,
      lastModifiedDate: expect.any(String),
    });
    expect(provider.requests.get('/.well-known/openid-configuration')).toBe(discoveries + 1);
    expect(await settings()).toEqual({ connection: saved, redirectUri: REDIRECT_URI });
    expect(res.body).not.toContain(SECRET);
    expect(JSON.stringify(await settings())).not.toContain(SECRET);
  });

  it('stores the client secret encrypted with SECRETS_KEY, bound to the organisation', async () => {
    await configureSso(team.admin.call, provider);
    const row = await storedRow(team.admin.organisationId);
    expect(row?.clientSecretEncrypted).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    const everything = JSON.stringify(
      await h.database.db.execute(sql`select s::text from sso_connections s`),
    );
    expect(everything).not.toContain(SECRET);
    const box = secretBoxWithKey(Buffer.from(TEST_SECRETS_KEY, 'hex'));
    expect(box.decrypt(row!.clientSecretEncrypted!, `sso.client_secret:${team.admin.organisationId}`)).toBe(
      SECRET,
    );
    expect(() =>
      box.decrypt(row!.clientSecretEncrypted!, `sso.client_secret:${team.outsider.organisationId}`),
    ).toThrow();
  });

  it('keeps the stored secret when none is sent, and clears it with an empty one', async () => {
    await configureSso(team.admin.call, provider);
    const first = (await storedRow(team.admin.organisationId))!.clientSecretEncrypted;
    const { clientSecret: _omitted, ...withoutSecret } = connectionInput(provider, {
      displayName: 'Renamed',
    });
    const kept = await team.admin.call('PUT', '/api/v1/sso', withoutSecret);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<SsoConnection>()).toMatchObject({ displayName: 'Renamed', hasClientSecret: true });
    expect((await storedRow(team.admin.organisationId))!.clientSecretEncrypted).toBe(first);

    const cleared = await team.admin.call('PUT', '/api/v1/sso', { ...withoutSecret, clientSecret: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json<SsoConnection>().hasClientSecret).toBe(false);
    expect((await storedRow(team.admin.organisationId))!.clientSecretEncrypted).toBeNull();
  });

  it('asks for the secret again when the stored one can no longer be decrypted (SECRETS_KEY changed)', async () => {
    await configureSso(team.admin.call, provider);
    const otherKey = secretBoxWithKey(Buffer.alloc(32, 1));
    await h.database.db
      .update(ssoConnections)
      .set({
        clientSecretEncrypted: otherKey.encrypt(SECRET, `sso.client_secret:${team.admin.organisationId}`),
      })
      .where(eq(ssoConnections.organisationId, team.admin.organisationId));
    const { clientSecret: _omitted, ...withoutSecret } = connectionInput(provider);
    const res = await team.admin.call('PUT', '/api/v1/sso', withoutSecret);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: unknown[] }>().errors).toEqual([
      { field: 'clientSecret', message: UNREADABLE_SECRET_MESSAGE },
    ]);
    expect((await team.admin.call('PUT', '/api/v1/sso', connectionInput(provider))).statusCode).toBe(200);
  });

  it('refuses an issuer whose OpenID Connect configuration cannot be read, saying why', async () => {
    // A server that hands out the real provider's document as its own, and one that answers HTML.
    const impostor = createServer((req, res) => {
      if (req.url === '/.well-known/openid-configuration') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ issuer: provider.issuer, authorization_endpoint: `${provider.issuer}/auth` }),
        );
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>Sign in</html>');
      }
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const impostorUrl = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
    const cases: [string, RegExp][] = [
      [`${provider.issuer}/elsewhere`, /it answered with HTTP status 404\.$/],
      [impostorUrl, /its discovery document names a different issuer/],
      [`${impostorUrl}/html`, /its answer is not an OpenID Connect discovery document\.$/],
      ['http://127.0.0.1:9/', /it could not be reached\.$/],
    ];
    for (const [issuer, reason] of cases) {
      const res = await team.admin.call('PUT', '/api/v1/sso', connectionInput(provider, { issuer }));
      expect(res.statusCode, issuer).toBe(400);
      const body = res.json<{ title: string; errors: { field: string; message: string }[] }>();
      expect(body.title).toMatch(/^Could not read the OpenID Connect configuration of that issuer: /);
      expect(body.title).toMatch(reason);
      expect(body.errors).toEqual([{ field: 'issuer', message: body.title }]);
    }
    impostor.close();
    expect(await settings()).toMatchObject({ connection: null });
  });

  it('refuses invalid settings field by field', async () => {
    const res = await team.admin.call('PUT', '/api/v1/sso', {
      ...connectionInput(provider),
      issuer: 'ftp://login.example.com',
      allowedDomains: ['not a domain'],
      defaultRole: 'ROLE_ADMIN',
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['issuer', 'allowedDomains.0', 'defaultRole']));
    const none = await team.admin.call('PUT', '/api/v1/sso', {
      ...connectionInput(provider),
      allowedDomains: [],
    });
    expect(none.json<{ errors: { message: string }[] }>().errors[0]?.message).toBe(
      'Allow at least one e-mail domain.',
    );
  });

  it('records who set up and changed single sign-on in the audit log, without the secret', async () => {
    await configureSso(team.admin.call, provider);
    await configureSso(team.admin.call, provider, { required: true, clientSecret: 'another-s3cret' });
    const [changed, created] = await auditTrail(team.admin.call);
    expect(created?.title).toBe('Single sign-on with Acme ID set up');
    expect(created?.description).toContain(escapeMarkdown(team.admin.email));
    expect(created?.description).toContain('`example.com`');
    expect(changed?.title).toBe('Single sign-on with Acme ID changed');
    expect(changed?.description).toContain('The client secret was replaced.');
    const text = JSON.stringify([changed, created]);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('another-s3cret');
  });
});

describe('DELETE /api/v1/sso', () => {
  it('removes the connection, audited; a second removal finds nothing', async () => {
    await configureSso(team.admin.call, provider);
    const res = await team.admin.call('DELETE', '/api/v1/sso');
    expect(res.statusCode, res.body).toBe(204);
    expect(await settings()).toEqual({ connection: null, redirectUri: REDIRECT_URI });
    expect(await storedRow(team.admin.organisationId)).toBeUndefined();
    expect((await auditTrail(team.admin.call))[0]?.title).toBe('Single sign-on with Acme ID removed');
    expect((await team.admin.call('DELETE', '/api/v1/sso')).statusCode).toBe(404);
  });
});

describe('permissions and organisations', () => {
  it('refuses members who are not organisation admins, on every route', async () => {
    await configureSso(team.admin.call, provider);
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', connectionInput(provider, { displayName: 'Hijacked' })],
        ['DELETE', undefined],
      ] as const) {
        const res = await member.call(method, '/api/v1/sso', body);
        expect(res.statusCode, `${method} as ${member.email}`).toBe(403);
        expect(res.json<{ title: string }>().title).toBe(SSO_ADMINS_ONLY);
      }
    }
    expect((await settings()).connection?.displayName).toBe('Acme ID');
  });

  it('does not let a personal access token change single sign-on', async () => {
    const created = await team.admin.call('POST', '/api/internal/v1/tokens', { name: 'script' });
    const call = callerFor(h.app, created.json<{ key: string }>().key);
    expect((await call('GET', '/api/v1/sso')).statusCode).toBe(200);
    expect((await call('PUT', '/api/v1/sso', connectionInput(provider))).statusCode).toBe(403);
    expect((await call('DELETE', '/api/v1/sso')).statusCode).toBe(403);
    expect((await settings()).connection).toBeNull();
  });

  it('keeps each organisation’s connection its own', async () => {
    await configureSso(team.admin.call, provider);
    expect((await settings(team.outsider.call)).connection).toBeNull();
    expect((await team.outsider.call('DELETE', '/api/v1/sso')).statusCode).toBe(404);
    await configureSso(team.outsider.call, provider, { displayName: 'Outsider ID' });
    expect((await settings()).connection?.displayName).toBe('Acme ID');
    expect((await settings(team.outsider.call)).connection?.displayName).toBe('Outsider ID');
  });
});

describe('the sign-in page (GET /api/v1/public/context)', () => {
  it('shows the organisation’s single sign-on, and nothing for one without', async () => {
    await configureSso(team.admin.call, provider, { required: true });
    const context = async (domain: string) =>
      (await h.app.inject({ method: 'GET', url: `/api/v1/public/context?domain=${domain}` })).json<{
        sso: unknown;
      }>().sso;
    expect(await context(team.admin.domain)).toEqual({ displayName: 'Acme ID', required: true });
    expect(await context(team.outsider.domain)).toBeNull();
    expect(await context('no-such-organisation')).toBeNull();
  });
});

describe('SSO required', () => {
  const passwordSignIn = (user: { email: string; password: string; domain: string }) =>
    h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      remoteAddress: randomIp(),
      payload: { username: user.email, password: user.password, domain: user.domain },
    });

  it('refuses members’ passwords but keeps organisation admins’, so a broken provider cannot lock it out', async () => {
    await configureSso(team.admin.call, provider, { required: true });
    for (const member of [team.editor, team.readOnly, team.productionEditor]) {
      const res = await passwordSignIn(member);
      expect(res.statusCode).toBe(403);
      expect(res.json<{ title: string }>().title).toBe(ssoRequiredMessage('Acme ID'));
    }
    expect((await passwordSignIn(team.admin)).statusCode).toBe(200);
    // A wrong password reads as always: the rule is told only to who knows the password.
    const wrong = await passwordSignIn({ ...team.editor, password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    // Another organisation is not concerned.
    expect((await passwordSignIn(team.outsider)).statusCode).toBe(200);
  });

  it('lets members use their passwords again once it is turned off or removed', async () => {
    await configureSso(team.admin.call, provider, { required: true });
    expect((await passwordSignIn(team.editor)).statusCode).toBe(403);
    await configureSso(team.admin.call, provider, { required: false });
    expect((await passwordSignIn(team.editor)).statusCode).toBe(200);
    await configureSso(team.admin.call, provider, { required: true });
    await team.admin.call('DELETE', '/api/v1/sso');
    expect((await passwordSignIn(team.editor)).statusCode).toBe(200);
  });
});

describe('outgoing requests with OUTGOING_ALLOW_PRIVATE off', () => {
  let guarded: Harness;
  beforeAll(async () => {
    guarded = await createHarness({ SECRETS_KEY: TEST_SECRETS_KEY });
  });
  afterAll(async () => {
    await guarded?.close();
  });

  it('refuses an issuer on a private or local address before any request is made, and plain http', async () => {
    const admin = await guarded.createOrganisation();
    const call = callerFor(guarded.app, await guarded.login(admin));
    const port = new URL(provider.issuer).port;
    const before = [...provider.requests.values()].reduce((a, b) => a + b, 0);
    const cases: [string, string][] = [
      [`https://127.0.0.1:${port}`, 'the address is not a public internet address'],
      [`https://localhost:${port}`, 'its host name points to an address that is not public'],
      ['https://169.254.169.254/latest', 'the address is not a public internet address'],
      ['https://[::ffff:10.0.0.1]', 'the address is not a public internet address'],
    ];
    for (const [issuer, reason] of cases) {
      const res = await call('PUT', '/api/v1/sso', connectionInput(provider, { issuer }));
      expect(res.statusCode, issuer).toBe(400);
      expect(res.json<{ title: string }>().title).toBe(
        `Could not read the OpenID Connect configuration of that issuer: ${reason}.`,
      );
    }
    const http = await call('PUT', '/api/v1/sso', connectionInput(provider));
    expect(http.statusCode).toBe(400);
    expect(http.json<{ errors: unknown[] }>().errors).toEqual([
      { field: 'issuer', message: HTTPS_ISSUER_MESSAGE },
    ]);
    expect([...provider.requests.values()].reduce((a, b) => a + b, 0)).toBe(before);
  });
});
