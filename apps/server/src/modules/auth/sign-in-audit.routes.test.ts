import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditPage } from '@vexil/core';
import { createTeam, type Team } from '../../../test/api';
import { createHarness, randomIp, type Harness } from '../../../test/helpers';
import { recordsFailures } from './sign-in-audit';

/*
 * Sign-ins in the audit log (docs/product.md §2 "Audit log list"): a "signed in" entry per session
 * (password, one-time link), an access token's first use each day, and runs of failed passwords as
 * counts, so that the Action filter's "Signed in" finds them.
 */

let h: Harness;
let team: Team;
let clock = new Date('2026-12-01T10:00:00Z');

beforeAll(async () => {
  // A clock that moves on a millisecond at each reading, so entries keep their order; tests set the day.
  h = await createHarness(
    {},
    {
      now: () => {
        clock = new Date(clock.getTime() + 1);
        return clock;
      },
    },
  );
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  clock = new Date('2026-12-01T10:00:00Z');
  await h.database.reset();
  team = await createTeam(h);
});

async function signIns(): Promise<{ title: string; description: string }[]> {
  const res = await team.admin.call('GET', '/api/v1/audit-items?action=login');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuditPage>().content;
}

function passwordAttempt(username: string, password: string, remoteAddress: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/authenticate',
    remoteAddress,
    payload: { username, password, domain: team.admin.domain, rememberMe: false },
  });
}

describe('signing in', () => {
  it('records each password sign-in under the Action filter’s "Signed in"', async () => {
    const before = (await signIns()).length;
    const user = team.admin;
    const res = await passwordAttempt(user.email, user.password, randomIp());
    expect(res.statusCode, res.body).toBe(200);
    const entries = await signIns();
    expect(entries).toHaveLength(before + 1);
    expect(entries[0]!.title).toBe(`${user.email} signed in`);
    expect(entries[0]!.description).toMatch(/ signed in with a password\.$/);
  });

  it('records a sign-in by one-time link, naming the single sign-on provider it came from', async () => {
    const user = team.editor;
    const sso = await h.app.services.auth.createLoginToken(user.organisationId, user.id, { via: 'Acme ID' });
    const link = await h.app.services.auth.createLoginToken(user.organisationId, user.id);
    for (const token of [sso, link]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/authenticate/token',
        remoteAddress: randomIp(),
        payload: { token, domain: user.domain },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const [byLink, bySso] = await signIns();
    expect(bySso?.description).toContain('signed in with **Acme ID** (single sign-on).');
    expect(byLink?.description).toContain('signed in with a one-time sign-in link');
  });
});

describe('failed attempts', () => {
  it('are written as one count when a run starts waiting, not one entry per failure', async () => {
    const before = (await signIns()).length;
    const ip = randomIp();
    for (let i = 1; i <= 4; i++)
      expect((await passwordAttempt(team.admin.email, 'wrong', ip)).statusCode).toBe(401);
    expect(await signIns()).toHaveLength(before);
    expect((await passwordAttempt(team.admin.email, 'wrong', ip)).statusCode).toBe(401);
    // Further attempts wait; they are not written either.
    expect((await passwordAttempt(team.admin.email, 'wrong', ip)).statusCode).toBe(429);
    const entries = await signIns();
    expect(entries).toHaveLength(before + 1);
    expect(entries[0]!.title).toBe(`5 failed sign-ins as ${team.admin.email}`);
    expect(entries[0]!.description).toContain(`from \`${ip}\``);
    // Someone unknown is counted the same, without telling the caller anything.
    for (let i = 1; i <= 5; i++) await passwordAttempt('nobody@example.com', 'guess', ip);
    expect((await signIns())[0]).toMatchObject({
      title: '5 failed sign-ins as nobody@example.com',
      description: expect.stringContaining('(no member has that e-mail)'),
    });
  });

  it('are written at the 5th failure of a run and at each doubling after it', () => {
    const written = Array.from({ length: 100 }, (_, i) => i + 1).filter(recordsFailures);
    expect(written).toEqual([5, 10, 20, 40, 80]);
  });
});

describe('access tokens', () => {
  it('record their first use of each day', async () => {
    const created = await team.admin.call('POST', '/api/internal/v1/tokens', { name: 'Release bot' });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json<{ key: string }>().key;
    const use = () =>
      h.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } });
    const before = (await signIns()).length;
    expect((await use()).statusCode).toBe(200);
    clock = new Date('2026-12-01T18:00:00Z');
    expect((await use()).statusCode).toBe(200);
    expect(await signIns()).toHaveLength(before + 1);
    clock = new Date('2026-12-02T08:00:00Z');
    expect((await use()).statusCode).toBe(200);
    const entries = await signIns();
    expect(entries).toHaveLength(before + 2);
    expect(entries[0]).toMatchObject({
      title: `${team.admin.email} used the access token Release bot`,
      description: expect.stringContaining('its first use today (UTC)'),
    });
  });
});
