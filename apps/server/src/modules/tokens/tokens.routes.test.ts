import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { AUTHORITIES, type Token } from '@vexil/core';
import { personalAccessTokens } from '../../db/schema/index';
import { auditTrail, callerFor, createTeam, type Caller, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';

let h: Harness;
let team: Team;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
});

const TOKENS = '/api/internal/v1/tokens';
const DAY_MS = 24 * 60 * 60 * 1000;

async function createToken(body: Record<string, unknown> = { name: 'CI' }, call: Caller = team.admin.call) {
  const res = await call('POST', TOKENS, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Token>();
}

async function listTokens(call: Caller = team.admin.call): Promise<Token[]> {
  const res = await call('GET', TOKENS);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Token[]>();
}

async function storedRows() {
  return h.database.db.select().from(personalAccessTokens);
}

describe('POST /api/internal/v1/tokens', () => {
  it('answers the whole token once, with its name trimmed, and lists it masked from then on', async () => {
    const created = await createToken({ name: '  Deploy script  ' });
    expect(created.key).toMatch(/^vxp_[0-9A-Za-z]{43}$/);
    expect(created).toMatchObject({ name: 'Deploy script', expiresDate: null, lastUsedDate: null });
    expect(Date.now() - Date.parse(created.createdDate)).toBeLessThan(60_000);

    const [listed, ...others] = await listTokens();
    expect(others).toEqual([]);
    expect(listed).toEqual({ ...created, key: `vxp_…${created.key.slice(-4)}` });
    expect(JSON.stringify(await listTokens())).not.toContain(created.key.slice(4, 40));
  });

  it('stores only the SHA-256 of the token, its prefix and its last four characters', async () => {
    const created = await createToken();
    const [row] = await storedRows();
    expect(row).toMatchObject({
      tokenHash: createHash('sha256').update(created.key).digest('hex'),
      tokenPrefix: 'vxp_',
      tokenLastFour: created.key.slice(-4),
    });
    const everything = await h.database.db.execute(sql`select t::text as row from personal_access_tokens t`);
    const text = JSON.stringify(everything);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(created.key.slice(4, 20));
  });

  it('gives every token its own value', async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 5; i++) keys.add((await createToken({ name: `T${i}` })).key);
    expect(keys.size).toBe(5);
  });

  it('sets the expiry from a number of days or a date', async () => {
    const inDays = await createToken({ name: 'Monthly', expiresInDays: 30 });
    const expected = Date.parse(inDays.createdDate) + 30 * DAY_MS;
    expect(Math.abs(Date.parse(inDays.expiresDate!) - expected)).toBeLessThan(1000);

    const at = new Date(Date.now() + 7 * DAY_MS).toISOString();
    const dated = await createToken({ name: 'Dated', expiresAt: at });
    expect(dated.expiresDate).toBe(at);
  });

  it('refuses a missing, blank or too long name, and an impossible expiry, naming the field', async () => {
    const cases: [unknown, { field: string; message: string }][] = [
      [{}, { field: 'name', message: 'Name is required' }],
      [{ name: '   ' }, { field: 'name', message: 'Name is required' }],
      [{ name: 'x'.repeat(256) }, { field: 'name', message: 'Must be at most 255 characters.' }],
      [
        { name: 'CI', expiresInDays: 0 },
        { field: 'expiresInDays', message: 'Must be at least 1 day.' },
      ],
      [
        { name: 'CI', expiresInDays: 1.5 },
        { field: 'expiresInDays', message: 'Must be a whole number of days.' },
      ],
      [
        { name: 'CI', expiresInDays: 3651 },
        { field: 'expiresInDays', message: 'Must be at most 3650 days.' },
      ],
      [
        { name: 'CI', expiresInDays: 30, expiresAt: new Date(Date.now() + DAY_MS).toISOString() },
        { field: 'expiresAt', message: 'Give either expiresInDays or expiresAt, not both.' },
      ],
      [
        { name: 'CI', expiresAt: new Date(Date.now() - DAY_MS).toISOString() },
        { field: 'expiresAt', message: 'The expiry date must be in the future.' },
      ],
      [
        { name: 'CI', expiresAt: new Date(Date.now() + 3651 * DAY_MS).toISOString() },
        { field: 'expiresAt', message: 'The expiry date must be at most 3650 days ahead.' },
      ],
    ];
    for (const [body, error] of cases) {
      const res = await team.admin.call('POST', TOKENS, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ errors: unknown[] }>().errors, JSON.stringify(body)).toContainEqual(error);
    }
    expect(await storedRows()).toEqual([]);
  });

  it('is for organisation admins: other members are refused and nothing is stored', async () => {
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('POST', TOKENS, { name: 'Mine' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ title: 'Only organisation admins may create access tokens.' });
    }
    expect(await storedRows()).toEqual([]);
  });

  it('records who created the token in the audit log, never the token', async () => {
    const created = await createToken({ name: 'Release *bot*', expiresInDays: 90 });
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Access token Release *bot* created');
    expect(item!.description).toContain(`created the personal access token **Release \\*bot\\***`);
    expect(item!.description).toContain(`\`vxp_…${created.key.slice(-4)}\``);
    expect(item!.description).toContain(`expiring on ${created.expiresDate!.slice(0, 10)}`);
    expect(item!.description).not.toContain(created.key);
  });

  it('refuses more than 50 live tokens per member', async () => {
    const values = Array.from({ length: 50 }, (_, i) => ({
      organisationId: team.admin.organisationId,
      userId: team.admin.id,
      name: `T${i}`,
      tokenHash: createHash('sha256').update(`t${i}`).digest('hex'),
      tokenPrefix: 'vxp_',
      tokenLastFour: 'abcd',
    }));
    await h.database.db.insert(personalAccessTokens).values(values);
    const res = await team.admin.call('POST', TOKENS, { name: 'One more' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      title: 'You can hold at most 50 access tokens. Delete one you no longer use first.',
    });
    await h.database.db
      .update(personalAccessTokens)
      .set({ archived: true })
      .where(eq(personalAccessTokens.name, 'T0'));
    await createToken({ name: 'One more' });
  });
});

describe('GET /api/internal/v1/tokens', () => {
  it('lists only the caller’s own live tokens, newest first', async () => {
    const first = await createToken({ name: 'First' });
    const second = await createToken({ name: 'Second' });
    const colleague = await h.createUser(team.admin.organisationId, team.admin.domain);
    const colleagueCall = callerFor(h.app, await h.login(colleague));
    await createToken({ name: 'Colleague’s' }, colleagueCall);
    await createToken({ name: 'Outsider’s' }, team.outsider.call);

    expect((await listTokens()).map((t) => t.name)).toEqual(['Second', 'First']);
    expect((await listTokens(colleagueCall)).map((t) => t.name)).toEqual(['Colleague’s']);
    expect(await listTokens(team.editor.call)).toEqual([]);
    await team.admin.call('DELETE', `${TOKENS}/${second.id}`);
    expect((await listTokens()).map((t) => t.id)).toEqual([first.id]);
  });

  it('keeps an expired token in the list, with its date, until it is deleted', async () => {
    const created = await createToken({ name: 'Old', expiresInDays: 1 });
    const past = new Date(Date.now() - DAY_MS);
    await h.database.db
      .update(personalAccessTokens)
      .set({ expiresAt: past })
      .where(eq(personalAccessTokens.id, created.id));
    const [listed] = await listTokens();
    expect(listed!.expiresDate).toBe(past.toISOString());
  });
});

describe('DELETE /api/internal/v1/tokens/{id}', () => {
  it('deletes the caller’s token, keeping the row archived, and audits it', async () => {
    const created = await createToken({ name: 'CI' });
    const res = await team.admin.call('DELETE', `${TOKENS}/${created.id}`);
    expect(res.statusCode).toBe(204);
    expect(await listTokens()).toEqual([]);
    const [row] = await storedRows();
    expect(row).toMatchObject({ id: created.id, archived: true });
    expect(row!.archivedAt).toBeInstanceOf(Date);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Access token CI deleted');
    expect(item!.description).toContain(`\`vxp_…${created.key.slice(-4)}\``);
    expect((await team.admin.call('DELETE', `${TOKENS}/${created.id}`)).statusCode).toBe(404);
  });

  it('answers 404 for another member’s token and for another organisation’s, and leaves them working', async () => {
    const colleague = await h.createUser(team.admin.organisationId, team.admin.domain);
    const colleagueToken = await createToken(
      { name: 'Colleague’s' },
      callerFor(h.app, await h.login(colleague)),
    );
    const outsiderToken = await createToken({ name: 'Outsider’s' }, team.outsider.call);
    for (const token of [colleagueToken, outsiderToken]) {
      const res = await team.admin.call('DELETE', `${TOKENS}/${token.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ title: 'Not found' });
    }
    expect((await callerFor(h.app, colleagueToken.key)('GET', '/api/v1/projects')).statusCode).toBe(200);
    expect((await callerFor(h.app, outsiderToken.key)('GET', '/api/v1/projects')).statusCode).toBe(200);
  });

  it('lets any member delete their own token, so one who lost the admin role can still revoke it', async () => {
    const created = await createToken({ name: 'CI' });
    await h.database.db.execute(
      sql`update users set authorities = ${`{${AUTHORITIES.ROLE_ORGANISATION_READONLY_USER}}`} where id = ${team.admin.id}`,
    );
    expect((await listTokens()).map((t) => t.id)).toEqual([created.id]);
    expect((await team.admin.call('DELETE', `${TOKENS}/${created.id}`)).statusCode).toBe(204);
  });
});

describe('the access-tokens UI flag', () => {
  it('off: the routes are not found and no token is accepted', async () => {
    const off = await createHarness({ VEXIL_UI_FLAGS: 'access-tokens=off' });
    try {
      const admin = await off.createOrganisation();
      const call = callerFor(off.app, await off.login(admin));
      for (const [method, url] of [
        ['GET', TOKENS],
        ['POST', TOKENS],
        ['DELETE', `${TOKENS}/00000000-0000-4000-8000-000000000001`],
      ] as const) {
        const res = await call(method, url, method === 'POST' ? { name: 'CI' } : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toMatchObject({ detail: 'Access tokens are turned off on this server.' });
      }
      // A token stored while the flag was on stops working.
      const token = `vxp_${'A'.repeat(43)}`;
      await off.database.db.insert(personalAccessTokens).values({
        organisationId: admin.organisationId,
        userId: admin.id,
        name: 'Earlier',
        tokenHash: createHash('sha256').update(token).digest('hex'),
        tokenPrefix: 'vxp_',
        tokenLastFour: 'AAAA',
      });
      expect((await callerFor(off.app, token)('GET', '/api/v1/projects')).statusCode).toBe(401);
    } finally {
      await off.close();
    }
  });
});
