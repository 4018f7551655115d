import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  INVITEE_NO_SEAT_MESSAGE,
  inviteeNoSeatDetail,
  type InitialPayload,
  type TeamMember,
} from '@vexil/core';
import { invites } from '../../db/schema/index';
import { auditTrail, callerFor, createTeam, subscribe, type Team } from '../../../test/api';
import { createHarness, randomIp, type Harness } from '../../../test/helpers';
import { captureLogs } from '../../../test/logs';
import { startTestMailServer, type TestMailServer } from '../../../test/smtp-server';

const LINK = /http:\/\/vexil\.test\/invited\/(vxi_[A-Za-z0-9_-]+)/;

describe('invited sign-up', () => {
  let h: Harness;
  let mail: TestMailServer;
  let team: Team;
  const logs = captureLogs('info');

  beforeAll(async () => {
    mail = await startTestMailServer();
    h = await createHarness({ SMTP_URL: mail.url }, { logger: logs.logger });
  });
  afterAll(async () => {
    await h.close();
    await mail.close();
  });
  beforeEach(async () => {
    await h.database.reset();
    mail.received.length = 0;
    team = await createTeam(h);
  });

  /** Invites `email` from Team Management and answers the key of the link the e-mail brings. */
  async function invite(email: string, names: { firstName?: string; lastName?: string } = {}) {
    const before = mail.received.length;
    const res = await team.admin.call('POST', '/api/v1/invites', [{ email, ...names }]);
    expect(res.statusCode, res.body).toBe(201);
    const received = await mail.waitFor(before + 1);
    const match = LINK.exec(received.at(-1)!.message.text ?? '');
    if (!match) throw new Error('no invitation link');
    return match[1]!;
  }

  const find = (key: string, host?: string) =>
    h.app.inject({
      method: 'GET',
      url: `/api/v1/signup/invitee/${key}`,
      remoteAddress: randomIp(),
      ...(host ? { headers: { host } } : {}),
    });
  const accept = (body: Record<string, unknown>) =>
    h.app.inject({
      method: 'POST',
      url: '/api/v1/signup/invitee/',
      remoteAddress: randomIp(),
      payload: body,
    });

  it('says who the link is for', async () => {
    const key = await invite('ada@example.com', { firstName: 'Ada', lastName: 'Lovelace' });
    const res = await find(key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      organisationName: `Org ${team.admin.domain}`,
      organisationDomain: team.admin.domain,
      alreadyActivated: false,
      seatAvailable: true,
    });
  });

  it('activates the member with the names and password chosen, signs them in with the session cookie, and spends the key', async () => {
    const key = await invite('ada@example.com');
    const res = await accept({
      activationKey: key,
      firstName: 'Ada',
      lastName: 'Lovelace',
      password: 'pa55word',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id_token: token, domain } = res.json<{ id_token: string; domain: string }>();
    expect(domain).toBe(team.admin.domain);
    expect(res.cookies).toEqual([
      expect.objectContaining({
        name: 'authenticationToken',
        value: token,
        httpOnly: true,
        path: '/',
        sameSite: 'Lax',
      }),
    ]);

    const initial = await h.app.inject({
      method: 'GET',
      url: '/api/v1/initial',
      cookies: { authenticationToken: token },
    });
    expect(initial.statusCode).toBe(200);
    expect(initial.json<InitialPayload>().principalUser).toMatchObject({
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      authorities: ['ROLE_ORGANISATION_READONLY_USER'],
    });

    const login = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      remoteAddress: randomIp(),
      payload: { username: 'ada@example.com', password: 'pa55word', domain: team.admin.domain },
    });
    expect(login.statusCode).toBe(200);

    const members = (await team.admin.call('GET', '/api/v1/users')).json<TeamMember[]>();
    expect(members.find((m) => m.email === 'ada@example.com')).toMatchObject({
      activated: true,
      fullName: 'Ada Lovelace',
    });
    const [row] = await h.database.db.select().from(invites).where(eq(invites.email, 'ada@example.com'));
    expect(row!.acceptedAt).not.toBeNull();
    // Newest first: the password sign-in above, the sign-in that accepting made, then the joining.
    expect((await auditTrail(team.admin.call)).slice(0, 3).map((item) => item.title)).toEqual(
      expect.arrayContaining(['ada@example.com signed in', 'Ada Lovelace (ada@example.com) joined the team']),
    );

    // The same link again: it says so, and activates nobody twice.
    expect((await find(key)).json()).toMatchObject({ email: 'ada@example.com', alreadyActivated: true });
    const again = await accept({
      activationKey: key,
      firstName: 'Eve',
      lastName: 'Evil',
      password: 'takeover',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ title: 'It looks like you have already activated your account!' });
    expect(again.cookies).toEqual([]);
    const stillAda = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      remoteAddress: randomIp(),
      payload: { username: 'ada@example.com', password: 'pa55word', domain: team.admin.domain },
    });
    expect(stillAda.statusCode).toBe(200);
  });

  it('answers 404 "We cannot find you!" for an unknown, expired, cancelled or replaced key, and activates nobody', async () => {
    const expired = await invite('old@example.com');
    await h.database.db
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.email, 'old@example.com'));
    const cancelled = await invite('gone@example.com');
    const gone = (await team.admin.call('GET', '/api/v1/users'))
      .json<TeamMember[]>()
      .find((m) => m.email === 'gone@example.com')!;
    expect((await team.admin.call('DELETE', `/api/v1/users/${gone.id}`)).statusCode).toBe(204);
    const replaced = await invite('twice@example.com');
    await invite('twice@example.com');

    for (const key of ['vxi_unknown', expired, cancelled, replaced]) {
      const res = await find(key);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ title: 'We cannot find you!' });
      const post = await accept({ activationKey: key, firstName: 'A', lastName: 'B', password: 'pa55word' });
      expect(post.statusCode).toBe(404);
      expect(post.cookies).toEqual([]);
    }
    const pending = (await team.admin.call('GET', '/api/v1/users'))
      .json<TeamMember[]>()
      .filter((m) => !m.activated);
    expect(pending.map((m) => m.email).sort()).toEqual(['old@example.com', 'twice@example.com']);
  });

  it('checks the plan’s seats again when an invitation is accepted: invitations sent on a larger plan wait for a seat', async () => {
    const ada = await invite('ada@example.com');
    const bob = await invite('bob@example.com');
    // The plan shrinks to the 4 active members and one more: one of the two invitations fits.
    await subscribe(h, team.admin.organisationId, { maxOrganisationUsers: 5 });
    const activate = (key: string) =>
      accept({ activationKey: key, firstName: 'A', lastName: 'B', password: 'pa55word' });
    expect((await find(ada)).json()).toMatchObject({ seatAvailable: true });
    expect((await activate(ada)).statusCode).toBe(200);

    expect((await find(bob)).json()).toMatchObject({ alreadyActivated: false, seatAvailable: false });
    const refused = await activate(bob);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      title: INVITEE_NO_SEAT_MESSAGE,
      detail: inviteeNoSeatDetail(`Org ${team.admin.domain}`),
      code: 'limit_reached',
    });
    expect(refused.cookies).toEqual([]);
    const members = (await team.admin.call('GET', '/api/v1/users')).json<TeamMember[]>();
    expect(members.filter((m) => m.activated)).toHaveLength(5);
    expect(members.find((m) => m.email === 'bob@example.com')).toMatchObject({ activated: false });

    // A member removed frees a seat, and the same link works.
    expect((await team.admin.call('DELETE', `/api/v1/users/${team.readOnly.id}`)).statusCode).toBe(204);
    expect((await find(bob)).json()).toMatchObject({ seatAvailable: true });
    expect((await activate(bob)).statusCode).toBe(200);
  });

  it('is not found from another organisation’s address', async () => {
    const key = await invite('ada@example.com');
    expect((await find(key, `${team.outsider.domain}.vexil.test`)).statusCode).toBe(404);
    expect((await find(key, `${team.admin.domain}.vexil.test`)).statusCode).toBe(200);
  });

  it('needs first and last names and a password of at least 4 characters', async () => {
    const key = await invite('ada@example.com');
    const res = await accept({ activationKey: key, firstName: ' ', lastName: '', password: 'abc' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: unknown[] }>().errors).toEqual([
      { field: 'firstName', message: 'First name is required' },
      { field: 'lastName', message: 'Last name is required' },
      { field: 'password', message: 'Your password should be greater than 4 characters long' },
    ]);
    expect((await find(key)).json()).toMatchObject({ alreadyActivated: false });
  });

  it('keeps the key out of the request log', async () => {
    const key = await invite('ada@example.com');
    await find(key);
    await accept({ activationKey: key, firstName: 'Ada', lastName: 'L', password: 'pa55word' });
    expect(logs.raw()).toContain('/api/v1/signup/invitee/[redacted]');
    expect(logs.raw()).not.toContain(key);
  });

  it('limits look-ups per client address', async () => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await h.app.inject({
        method: 'GET',
        url: `/api/v1/signup/invitee/vxi_${i}`,
        remoteAddress: ip,
      });
      statuses.push(res.statusCode);
    }
    expect(new Set(statuses.slice(0, 30))).toEqual(new Set([404]));
    expect(statuses[30]).toBe(429);
  });

  it('the invited member’s session works like any other', async () => {
    const key = await invite('ada@example.com');
    const res = await accept({ activationKey: key, firstName: 'Ada', lastName: 'L', password: 'pa55word' });
    const call = callerFor(h.app, res.json<{ id_token: string }>().id_token);
    expect((await call('GET', '/api/v1/projects')).statusCode).toBe(200);
  });
});
