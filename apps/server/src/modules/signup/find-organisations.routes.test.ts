import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { organisations, users } from '../../db/schema/index';
import { createHarness, randomIp, type Harness, type TestUser } from '../../../test/helpers';
import { startTestMailServer, type TestMailServer } from '../../../test/smtp-server';

describe('POST /api/v1/account/findorganisations', () => {
  let h: Harness;
  let mail: TestMailServer;
  let acme: TestUser;

  beforeAll(async () => {
    mail = await startTestMailServer();
    h = await createHarness({ SMTP_URL: mail.url });
  });
  afterAll(async () => {
    await h.close();
    await mail.close();
  });
  beforeEach(async () => {
    await h.database.reset();
    mail.received.length = 0;
    acme = await h.createOrganisation({ name: 'Acme', domain: 'acme' });
  });

  const find = (email: string, ip = randomIp()) =>
    h.app.inject({
      method: 'POST',
      url: '/api/v1/account/findorganisations',
      remoteAddress: ip,
      payload: { email },
    });

  /** Lets the e-mails posted so far reach the server (or not), so "nothing was sent" is observed. */
  async function settle() {
    await h.app.services.signup.mailsSettled();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  /** Makes `email` an active member of another organisation too (and a pending one of a third). */
  async function alsoMemberOf(email: string, name: string, domain: string, activated = true) {
    const [org] = await h.database.db.insert(organisations).values({ name, domain }).returning();
    await h.database.db
      .insert(users)
      .values({ organisationId: org!.id, email, activated, authorities: ['ROLE_ORGANISATION_EDITOR'] });
  }

  it('e-mails the sign-in address of every organisation where the address is an active member', async () => {
    await alsoMemberOf(acme.email, 'Beta Corp', 'beta');
    await alsoMemberOf(acme.email, 'Pending Ltd', 'pending', false);
    const res = await find(acme.email.toUpperCase());
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const [received] = await mail.waitFor(1);
    expect(received!.to).toEqual([acme.email]);
    expect(received!.message.subject).toBe('Your organisations on Vexil');
    const text = received!.message.text ?? '';
    expect(text).toContain('Acme: http://vexil.test/acme/login');
    expect(text).toContain('Beta Corp: http://vexil.test/beta/login');
    expect(text).not.toContain('pending');
    expect(received!.message.html).toContain('href="http://vexil.test/beta/login"');
  });

  it('answers an address without organisations exactly alike, and sends it nothing', async () => {
    const known = await find(acme.email);
    await mail.waitFor(1);
    const unknown = await find('nobody@example.com');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    await settle();
    expect(mail.received).toHaveLength(1);
  });

  it('leaves out an organisation the member was removed from', async () => {
    await h.database.db.update(users).set({ archived: true }).where(eq(users.id, acme.id));
    expect((await find(acme.email)).statusCode).toBe(204);
    await settle();
    expect(mail.received).toHaveLength(0);
  });

  it('escapes organisation names in the HTML part', async () => {
    await h.database.db
      .update(organisations)
      .set({ name: '<script>alert(1)</script> & Co' })
      .where(eq(organisations.id, acme.organisationId));
    await find(acme.email);
    const [received] = await mail.waitFor(1);
    expect(received!.message.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(received!.message.html).not.toContain('<script>');
  });

  it('refuses a malformed address with the form’s message', async () => {
    const res = await find('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [{ field: 'email', message: 'Must be a valid email address' }],
    });
  });

  it('limits e-mails per address, known or not, and requests per client address', async () => {
    // An address no other test asked for: the allowance is counted per address for the app's life.
    for (const email of [acme.email, 'stranger@example.com']) {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await find(email)).statusCode);
      expect(statuses).toEqual([204, 204, 204, 429]);
    }
    const ip = randomIp();
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await find(`person-${i}@example.com`, ip)).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 204)).toBe(true);
    expect(statuses[10]).toBe(429);
    await settle();
    expect(mail.received).toHaveLength(3);
  });
});
