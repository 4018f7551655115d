import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { FREE_PLAN_LIMITS, type InvitesResult, type TeamMember } from '@vexil/core';
import { invites, organisations, users } from '../../db/schema/index';
import { hashToken } from '../../lib/tokens';
import { auditTrail, createTeam, subscribe, type Caller, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { captureLogs } from '../../../test/logs';
import { startTestMailServer, type TestMailServer } from '../../../test/smtp-server';

const LINK = /http:\/\/vexil\.test\/invited\/(vxi_[A-Za-z0-9_-]+)/;
const DAY_MS = 24 * 60 * 60 * 1000;

type Row = { email: string; firstName?: string; lastName?: string };

async function post(call: Caller, rows: Row[]) {
  return call('POST', '/api/v1/invites', rows);
}

async function invite(call: Caller, rows: Row[]): Promise<InvitesResult> {
  const res = await post(call, rows);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<InvitesResult>();
}

function keyOf(link: string | null | undefined): string {
  const match = LINK.exec(link ?? '');
  if (!match) throw new Error(`No invitation link in ${link}`);
  return match[1]!;
}

async function invitationRows(h: Harness, email: string) {
  return h.database.db.select().from(invites).where(eq(invites.email, email));
}

async function pendingEmails(call: Caller): Promise<string[]> {
  const res = await call('GET', '/api/v1/users');
  return res
    .json<TeamMember[]>()
    .filter((m) => !m.activated)
    .map((m) => m.email);
}

describe('with a mail server (SMTP_URL)', () => {
  let h: Harness;
  let team: Team;
  let mail: TestMailServer;
  const logs = captureLogs('info');

  beforeAll(async () => {
    mail = await startTestMailServer({ credentials: { user: 'vexil', pass: 's3cret' } });
    h = await createHarness(
      { SMTP_URL: mail.url, MAIL_FROM: 'Vexil Team <team@vexil.test>' },
      { logger: logs.logger },
    );
  });
  afterAll(async () => {
    await h.close();
    await mail.close();
  });
  beforeEach(async () => {
    await h.database.reset();
    mail.received.length = 0;
    mail.refuseRecipients(false);
    team = await createTeam(h);
  });

  it('e-mails each invitation with a plain-text and an HTML part linking to /invited/{key}', async () => {
    const result = await invite(team.admin.call, [
      { email: 'Ada@Example.com', firstName: 'Ada', lastName: 'Lovelace' },
      { email: 'bob@example.com' },
    ]);
    expect(result).toMatchObject({ mail: 'sent', message: 'Invitations sent.' });
    expect(result.invitations.map((i) => [i.email, i.mail, i.link, i.resent])).toEqual([
      ['ada@example.com', 'sent', null, false],
      ['bob@example.com', 'sent', null, false],
    ]);
    const [ada, bob] = await mail.waitFor(2);
    expect(ada!.from).toBe('team@vexil.test');
    expect(ada!.to).toEqual(['ada@example.com']);
    expect(ada!.message.to).toMatchObject({ value: [{ name: 'Ada Lovelace', address: 'ada@example.com' }] });
    expect(ada!.message.subject).toBe(`Test User invited you to join Org ${team.admin.domain} on Vexil`);
    expect(ada!.message.text).toMatch(/^Hello Ada,/);
    const key = keyOf(ada!.message.text);
    expect(ada!.message.html).toContain(`href="http://vexil.test/invited/${key}"`);
    expect(bob!.message.text).toMatch(/^Hello,/);
    expect(keyOf(bob!.message.text)).not.toBe(key);

    // Only the key's SHA-256 is stored; the link works for 7 days.
    const [row] = await invitationRows(h, 'ada@example.com');
    expect(row!.activationTokenHash).toBe(hashToken(key));
    expect(JSON.stringify(await h.database.db.select().from(invites))).not.toContain(key);
    expect(row!.expiresAt!.getTime() - row!.createdAt.getTime()).toBe(7 * DAY_MS);
    expect(row!.acceptedAt).toBeNull();
    expect(row!.invitedById).toBe(team.admin.id);
  });

  it('escapes every text people typed in the HTML part', async () => {
    await h.database.db
      .update(organisations)
      .set({ name: 'Acme & <Partners>' })
      .where(eq(organisations.id, team.admin.organisationId));
    await h.database.db
      .update(users)
      .set({ firstName: '<script>alert(1)</script>', lastName: '"Quotes"' })
      .where(eq(users.id, team.admin.id));
    await invite(team.admin.call, [
      { email: 'eve@example.com', firstName: '<img src=x onerror=alert(2)>', lastName: "O'Hara" },
    ]);
    const [received] = await mail.waitFor(1);
    const html = received!.message.html as string;
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;Quotes&quot;');
    expect(html).toContain('Acme &amp; &lt;Partners&gt;');
    expect(html).toContain('Hello &lt;img src=x onerror=alert(2)&gt;,');
    expect(html).not.toMatch(/<script|<img|onerror=alert\(2\)>/);
    // The plain-text part says it as typed.
    expect(received!.message.text).toContain(
      '<script>alert(1)</script> "Quotes" invited you to join Acme & <Partners>',
    );
    expect(received!.message.subject).toBe(
      '<script>alert(1)</script> "Quotes" invited you to join Acme & <Partners> on Vexil',
    );
  });

  it('re-inviting a pending address sends a new link; the old one no longer exists', async () => {
    await invite(team.admin.call, [{ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' }]);
    const first = keyOf((await mail.waitFor(1))[0]!.message.text);
    const again = await invite(team.admin.call, [{ email: 'ada@example.com' }]);
    expect(again.invitations[0]).toMatchObject({ resent: true, mail: 'sent' });
    const second = keyOf((await mail.waitFor(2))[1]!.message.text);
    expect(second).not.toBe(first);
    const rows = await invitationRows(h, 'ada@example.com');
    expect(rows.map((r) => r.activationTokenHash)).toEqual([hashToken(second)]);
    // The names given first are kept when the second invitation names nobody.
    const pending = (await team.admin.call('GET', '/api/v1/users'))
      .json<TeamMember[]>()
      .filter((m) => m.email === 'ada@example.com');
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ fullName: 'Ada Lovelace', activated: false });
    expect((await auditTrail(team.admin.call))[0]?.title).toBe('Invitation to ada@example.com sent again');
  });

  it("refuses an active member's address, naming it, and invites nobody of the request", async () => {
    const res = await post(team.admin.call, [
      { email: 'new@example.com' },
      { email: team.editor.email.toUpperCase() },
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      title: `${team.editor.email} is already a member of this organisation.`,
      errors: [
        { field: '1.email', message: `${team.editor.email} is already a member of this organisation.` },
      ],
    });
    expect(await pendingEmails(team.admin.call)).toEqual([]);
    expect(mail.received).toHaveLength(0);
  });

  it('reports a refused e-mail clearly; the invitation stays and can be sent again; the log holds no address or key', async () => {
    mail.refuseRecipients(true);
    const failed = await invite(team.admin.call, [{ email: 'grace@example.com', firstName: 'Grace' }]);
    expect(failed.mail).toBe('failed');
    expect(failed.message).toBe(
      '1 of 1 invitation e-mail(s) could not be sent: the mail server refused the sender or the recipient (550). The invitations are saved: invite the same address again to resend, or copy the links below.',
    );
    const link = failed.invitations[0]!.link;
    const key = keyOf(link);
    expect(failed.invitations[0]).toMatchObject({ mail: 'failed', resent: false });
    expect(await pendingEmails(team.admin.call)).toEqual(['grace@example.com']);

    // Someone opening the link: its key stays out of the request log too.
    await h.app.inject({ method: 'GET', url: `/invited/${key}` });
    const logged = logs.raw();
    expect(logged).toContain('An invitation e-mail could not be sent');
    expect(logged).toContain('/invited/[redacted]');
    expect(logged).not.toContain(key);
    expect(logged).not.toContain('grace@example.com');

    mail.refuseRecipients(false);
    const resent = await invite(team.admin.call, [{ email: 'grace@example.com' }]);
    expect(resent).toMatchObject({ mail: 'sent', message: 'Invitations sent.' });
    expect(resent.invitations[0]).toMatchObject({ resent: true, link: null });
    const [received] = await mail.waitFor(1);
    expect(received!.to).toEqual(['grace@example.com']);
    expect(keyOf(received!.message.text)).not.toBe(key);
  });
});

describe('with an unreachable mail server', () => {
  let h: Harness;
  let team: Team;

  beforeAll(async () => {
    // Nothing listens on port 1 of loopback: the connection is refused at once.
    h = await createHarness({ SMTP_URL: 'smtp://127.0.0.1:1' });
    team = await createTeam(h);
  });
  afterAll(async () => {
    await h.close();
  });

  it('says the mail server could not be reached, and answers the link', async () => {
    const result = await invite(team.admin.call, [{ email: 'ada@example.com' }]);
    expect(result.mail).toBe('failed');
    expect(result.message).toContain('could not be sent: the mail server could not be reached.');
    expect(result.invitations[0]!.link).toMatch(LINK);
  });
});

describe('without a mail server', () => {
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

  it('creates the invitations and answers their links to copy, with a notice that mail is not configured', async () => {
    const result = await invite(team.admin.call, [
      { email: 'ada@example.com' },
      { email: 'bob@example.com' },
    ]);
    expect(result.mail).toBe('not_configured');
    expect(result.message).toBe(
      'Mail is not configured on this server (SMTP_URL), so no invitation was e-mailed. Copy each link below and send it to the person it is for.',
    );
    for (const invitation of result.invitations) {
      expect(invitation.mail).toBe('not_configured');
      const [row] = await invitationRows(h, invitation.email);
      expect(row!.activationTokenHash).toBe(hashToken(keyOf(invitation.link)));
    }
    expect(await pendingEmails(team.admin.call)).toEqual(['ada@example.com', 'bob@example.com']);
    const trail = await auditTrail(team.admin.call);
    expect(trail.slice(0, 2).map((e) => e.title)).toEqual([
      'bob@example.com invited',
      'ada@example.com invited',
    ]);
    expect(trail[0]?.description).toContain(
      'to join as **Read-only user**. The invitation expires in 7 days.',
    );
  });

  it('answers the form messages: e-mail "Required" and "Email must be valid"; names optional', async () => {
    const res = await post(team.admin.call, [
      { email: '' },
      { email: 'not-an-email' },
      { email: 'ok@example.com' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: unknown[] }>().errors).toEqual([
      { field: '0.email', message: 'Required' },
      { field: '1.email', message: 'Email must be valid' },
    ]);
    expect((await post(team.admin.call, [])).statusCode).toBe(400);
    expect(await pendingEmails(team.admin.call)).toEqual([]);
  });

  it('refuses an address listed twice', async () => {
    const res = await post(team.admin.call, [{ email: 'ada@example.com' }, { email: 'ADA@example.com' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [{ field: '1.email', message: 'ada@example.com is listed twice.' }],
    });
  });

  it('invites an address that belongs to another organisation like any other', async () => {
    const result = await invite(team.admin.call, [{ email: team.outsider.email }]);
    expect(result.invitations[0]).toMatchObject({ email: team.outsider.email, resent: false });
    expect((await team.outsider.call('GET', '/api/v1/users')).json<TeamMember[]>()).toHaveLength(1);
  });

  it('is refused to members who are not organisation admins', async () => {
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await post(member.call, [{ email: 'ada@example.com' }]);
      expect(res.statusCode).toBe(403);
    }
    expect(await pendingEmails(team.admin.call)).toEqual([]);
  });

  it('counts pending invitations against the seat limit, on the server', async () => {
    // Four members already; six seats.
    await subscribe(h, team.admin.organisationId, { ...FREE_PLAN_LIMITS, maxOrganisationUsers: 6 });
    const tooMany = await post(team.admin.call, [
      { email: 'a@example.com' },
      { email: 'b@example.com' },
      { email: 'c@example.com' },
    ]);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ title: 'Only 6 user(s) allowed.', code: 'limit_reached' });
    expect(await pendingEmails(team.admin.call)).toEqual([]);

    await invite(team.admin.call, [{ email: 'a@example.com' }, { email: 'b@example.com' }]);
    const full = await post(team.admin.call, [{ email: 'c@example.com' }]);
    expect(full.statusCode).toBe(400);
    expect(full.json()).toMatchObject({ title: 'Only 6 user(s) allowed.' });
    // Sending an invitation again takes no new seat.
    expect((await invite(team.admin.call, [{ email: 'a@example.com' }])).invitations[0]!.resent).toBe(true);
    // Cancelling one frees its seat.
    const pending = (await team.admin.call('GET', '/api/v1/users'))
      .json<TeamMember[]>()
      .find((m) => m.email === 'b@example.com');
    expect((await team.admin.call('DELETE', `/api/v1/users/${pending!.id}`)).statusCode).toBe(204);
    await invite(team.admin.call, [{ email: 'c@example.com' }]);
  });

  it('sends one address at most 5 invitations an hour from an organisation, then 429 with Retry-After, inviting nobody of that request', async () => {
    for (let i = 0; i < 5; i++) await invite(team.admin.call, [{ email: 'flooded@example.com' }]);
    const refused = await post(team.admin.call, [
      { email: 'fresh@example.com' },
      { email: 'flooded@example.com' },
    ]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      title: 'Too many invitations were sent to flooded@example.com lately. Please wait and try again later.',
      code: 'rate_limited',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await pendingEmails(team.admin.call)).toEqual(['flooded@example.com']);
    // The address that was refused nothing may be invited on its own.
    await invite(team.admin.call, [{ email: 'fresh@example.com' }]);
  });

  it('limits invitation requests per client address', async () => {
    const token = await h.login(team.admin);
    const from = (remoteAddress: string, email: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/v1/invites',
        remoteAddress,
        headers: { authorization: `Bearer ${token}` },
        payload: [{ email }],
      });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await from('203.0.113.7', `person${i}@example.com`)).statusCode);
    expect(new Set(statuses.slice(0, 30))).toEqual(new Set([201]));
    expect(statuses[30]).toBe(429);
    expect((await from('203.0.113.8', 'other@example.com')).statusCode).toBe(201);
  });
});
