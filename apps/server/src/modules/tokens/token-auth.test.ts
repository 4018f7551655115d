import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUTHORITIES, escapeMarkdown, type Token } from '@vexil/core';
import { organisations, personalAccessTokens, users } from '../../db/schema/index';
import { hashPassword } from '../../lib/passwords';
import { createTeam, type Team } from '../../../test/api';
import { captureLogs } from '../../../test/logs';
import { createHarness, randomIp, testConfig, type Harness } from '../../../test/helpers';
import { openTestDatabase } from '../../../test/test-database';
import { buildApp } from '../../app';

/*
 * A personal access token as a credential (`Authorization: Bearer vxp_…`), over real HTTP: it acts as
 * its owner with the owner's permissions as they are at each request, and is refused (401) from the
 * request after it is deleted, expires, or its owner is removed or deactivated.
 */

let h: Harness;
let team: Team;
let base: string;

beforeAll(async () => {
  h = await createHarness();
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  const res = await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  expect(res.statusCode, res.body).toBe(201);
});

async function createToken(body: Record<string, unknown> = { name: 'CI' }): Promise<Token> {
  const res = await team.admin.call('POST', '/api/internal/v1/tokens', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Token>();
}

/** A call over HTTP with the token as bearer: the status and the parsed answer. */
async function withToken(
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { title?: string } & Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

const segment = (key: string, environmentKey = 'development') => ({
  projectKey: 'web',
  environmentKey,
  key,
  name: key,
});

async function setAuthorities(userId: string, authority: string) {
  await h.database.db
    .update(users)
    .set({ authorities: [authority] })
    .where(eq(users.id, userId));
}

describe('Authorization: Bearer with a personal access token', () => {
  it('reads and writes the dashboard API as its owner', async () => {
    const { key } = await createToken();
    const projects = await withToken(key, 'GET', '/api/v1/projects');
    expect(projects.status).toBe(200);
    expect((projects.body as unknown as { key: string }[]).map((p) => p.key)).toEqual(['web']);
    const initial = await withToken(key, 'GET', '/api/v1/initial');
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ principalUser: { email: team.admin.email } });

    const created = await withToken(key, 'POST', '/api/v2/segments/', segment('beta', 'production'));
    expect(created.status).toBe(201);
    const audit = await withToken(key, 'GET', '/api/v1/audit-items');
    const titles = (audit.body as unknown as { content: { title: string; description: string }[] }).content;
    expect(titles[0]).toMatchObject({ title: 'Segment beta created in Production' });
    expect(titles[0]!.description).toContain(escapeMarkdown(team.admin.email));
  });

  it('follows its owner’s role at each request: a demoted owner’s token loses the rights at once', async () => {
    const { key } = await createToken();
    await setAuthorities(team.admin.id, AUTHORITIES.ROLE_ORGANISATION_EDITOR);
    const project = await withToken(key, 'POST', '/api/v1/projects/', { name: 'Mobile', key: 'mob' });
    expect(project.status).toBe(403);
    expect((await withToken(key, 'POST', '/api/v2/segments/', segment('dev-only'))).status).toBe(201);
    expect((await withToken(key, 'POST', '/api/v2/segments/', segment('prod', 'production'))).status).toBe(
      403,
    );

    await setAuthorities(team.admin.id, AUTHORITIES.ROLE_ORGANISATION_READONLY_USER);
    const refused = await withToken(key, 'POST', '/api/v2/segments/', segment('another'));
    expect(refused.status).toBe(403);
    expect(refused.body.title).toBe('You do not have permission to create segments.');
    expect((await withToken(key, 'GET', '/api/v2/segments/web/development')).status).toBe(200);

    await setAuthorities(team.admin.id, AUTHORITIES.ROLE_ORGANISATION_ADMIN);
    expect((await withToken(key, 'POST', '/api/v1/projects/', { name: 'Mobile', key: 'mob' })).status).toBe(
      201,
    );
  });

  it('is refused from the next request once deleted', async () => {
    const token = await createToken();
    expect((await withToken(token.key, 'GET', '/api/v1/projects')).status).toBe(200);
    expect((await team.admin.call('DELETE', `/api/internal/v1/tokens/${token.id}`)).statusCode).toBe(204);
    const refused = await withToken(token.key, 'GET', '/api/v1/projects');
    expect(refused.status).toBe(401);
    expect(refused.body.title).toBe(
      'This access token is not valid: it was deleted or has expired, or its owner may no longer sign in.',
    );
  });

  it('may delete itself, and then stops working', async () => {
    const token = await createToken();
    expect((await withToken(token.key, 'DELETE', `/api/internal/v1/tokens/${token.id}`)).status).toBe(204);
    expect((await withToken(token.key, 'GET', '/api/internal/v1/tokens')).status).toBe(401);
  });

  it('is refused once expired', async () => {
    const token = await createToken({ name: 'Short', expiresInDays: 1 });
    expect((await withToken(token.key, 'GET', '/api/v1/projects')).status).toBe(200);
    await h.database.db
      .update(personalAccessTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(personalAccessTokens.id, token.id));
    expect((await withToken(token.key, 'GET', '/api/v1/projects')).status).toBe(401);
  });

  it('is refused once its owner is removed or deactivated', async () => {
    for (const change of [{ archived: true }, { activated: false }]) {
      await setAuthorities(team.admin.id, AUTHORITIES.ROLE_ORGANISATION_ADMIN);
      await h.database.db
        .update(users)
        .set({ archived: false, activated: true })
        .where(eq(users.id, team.admin.id));
      const { key } = await createToken({ name: JSON.stringify(change) });
      expect((await withToken(key, 'GET', '/api/v1/projects')).status).toBe(200);
      await h.database.db.update(users).set(change).where(eq(users.id, team.admin.id));
      expect((await withToken(key, 'GET', '/api/v1/projects')).status, JSON.stringify(change)).toBe(401);
    }
    // Deleting the member deletes their tokens with them.
    await h.database.db
      .update(users)
      .set({ archived: false, activated: true })
      .where(eq(users.id, team.admin.id));
    const { key } = await createToken({ name: 'Last' });
    await h.database.db.delete(users).where(eq(users.id, team.admin.id));
    expect((await withToken(key, 'GET', '/api/v1/projects')).status).toBe(401);
    expect(await h.database.db.select().from(personalAccessTokens)).toEqual([]);
  });

  it('refuses unknown, altered and malformed tokens like no token', async () => {
    const { key } = await createToken();
    const altered = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
    for (const token of [altered, `${key}x`, 'vxp_', `vxp_${'A'.repeat(43)}`, `vxp_${'-'.repeat(43)}`]) {
      expect((await withToken(token, 'GET', '/api/v1/projects')).status, token).toBe(401);
    }
  });

  it('works only at its own organisation’s address', async () => {
    const { key } = await createToken();
    expect((await withToken(key, 'GET', `/${team.admin.domain}/api/v1/projects`)).status).toBe(200);
    const elsewhere = await withToken(key, 'GET', `/${team.outsider.domain}/api/v1/projects`);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.title).toBe('This access token belongs to another organisation.');
  });

  it('cannot create tokens, but may list them', async () => {
    const { key } = await createToken();
    const res = await withToken(key, 'POST', '/api/internal/v1/tokens', { name: 'Child' });
    expect(res.status).toBe(403);
    expect(res.body.title).toBe('An access token cannot do this: sign in to the dashboard to do it.');
    const listed = await withToken(key, 'GET', '/api/internal/v1/tokens');
    expect((listed.body as unknown as Token[]).map((t) => t.name)).toEqual(['CI']);
  });

  it('writes without the Origin check the session cookie needs: a bearer token is never sent by itself', async () => {
    const { key } = await createToken();
    const res = await withToken(key, 'POST', '/api/v2/segments/', segment('from-a-script'), {
      origin: 'https://elsewhere.example',
    });
    expect(res.status).toBe(201);
  });

  it('records its last use at most once a minute', async () => {
    const token = await createToken();
    const lastUsed = async () => {
      const [row] = await h.database.db
        .select({ at: personalAccessTokens.lastUsedAt })
        .from(personalAccessTokens)
        .where(eq(personalAccessTokens.id, token.id));
      return row!.at;
    };
    expect(await lastUsed()).toBeNull();
    await withToken(token.key, 'GET', '/api/v1/projects');
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    expect(Date.now() - first!.getTime()).toBeLessThan(60_000);
    const [listed] = (await team.admin.call('GET', '/api/internal/v1/tokens')).json<Token[]>();
    expect(listed!.lastUsedDate).toBe(first!.toISOString());

    // Used again within the minute: no write.
    const halfAMinuteAgo = new Date(Date.now() - 30_000);
    await h.database.db
      .update(personalAccessTokens)
      .set({ lastUsedAt: halfAMinuteAgo })
      .where(eq(personalAccessTokens.id, token.id));
    await Promise.all([1, 2, 3].map(() => withToken(token.key, 'GET', '/api/v1/projects')));
    expect((await lastUsed())!.toISOString()).toBe(halfAMinuteAgo.toISOString());

    // Over a minute later: the next use is recorded.
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await h.database.db
      .update(personalAccessTokens)
      .set({ lastUsedAt: twoMinutesAgo })
      .where(eq(personalAccessTokens.id, token.id));
    await withToken(token.key, 'GET', '/api/v1/projects');
    expect((await lastUsed())!.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('logs', () => {
  it('never hold a token, whether created, used or refused', async () => {
    const logs = captureLogs('debug');
    const database = await openTestDatabase();
    const app = await buildApp({ config: testConfig({ LOG_LEVEL: 'debug' }), database, logger: logs.logger });
    await app.ready();
    try {
      const [org] = await database.db
        .insert(organisations)
        .values({ name: 'Acme', domain: 'acme' })
        .returning({ id: organisations.id });
      await database.db.insert(users).values({
        organisationId: org!.id,
        email: 'ada@example.com',
        passwordHash: await hashPassword('a-password', 'test'),
        authorities: [AUTHORITIES.ROLE_ORGANISATION_ADMIN],
        activated: true,
      });
      const login = await app.inject({
        method: 'POST',
        url: '/api/authenticate',
        remoteAddress: randomIp(),
        payload: { username: 'ada@example.com', password: 'a-password', domain: 'acme' },
      });
      const session = login.json<{ id_token: string }>().id_token;
      const created = await app.inject({
        method: 'POST',
        url: '/api/internal/v1/tokens',
        headers: { authorization: `Bearer ${session}` },
        payload: { name: 'CI' },
      });
      const { key, id } = created.json<Token>();
      const auth = { authorization: `Bearer ${key}` };
      await app.inject({ method: 'GET', url: '/api/v1/projects', headers: auth });
      await app.inject({ method: 'GET', url: `/api/v1/no-such-route?token=${key}`, headers: auth });
      await app.inject({ method: 'DELETE', url: `/api/internal/v1/tokens/${id}`, headers: auth });
      const refused = await app.inject({ method: 'GET', url: '/api/v1/projects', headers: auth });
      expect(refused.statusCode).toBe(401);
      expect(logs.lines().length).toBeGreaterThan(0);
      expect(logs.raw()).not.toContain(key.slice(4));
    } finally {
      await app.close();
    }
  });
});
