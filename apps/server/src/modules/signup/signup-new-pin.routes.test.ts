import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, randomIp, type Harness } from '../../../test/helpers';
import { startTestMailServer, type ReceivedMail, type TestMailServer } from '../../../test/smtp-server';

const PIN_INVALID = 'The pin you have entered is invalid.';

function pinOf(mail: ReceivedMail): string {
  const match = /^(\d{6})$/m.exec(mail.message.text ?? '');
  if (!match) throw new Error(`No pin in ${mail.message.text}`);
  return match[1]!;
}

describe('POST /api/v1/signup/registeremail for a new pin (previousOnce)', () => {
  let h: Harness;
  let mail: TestMailServer;
  /** A fresh address per test: the per-address pin limit lives as long as the app. */
  let grace: string;

  beforeAll(async () => {
    mail = await startTestMailServer();
    h = await createHarness({ SMTP_URL: mail.url, MAIL_FROM: 'Vexil <no-reply@vexil.test>' });
  });
  afterAll(async () => {
    await h.close();
    await mail.close();
  });
  beforeEach(async () => {
    await h.app.services.signup.mailsSettled();
    await h.database.reset();
    mail.received.length = 0;
    grace = `grace-${randomBytes(4).toString('hex')}@example.com`;
  });

  const post = (url: string, body: object) =>
    h.app.inject({ method: 'POST', url: `/api/v1/signup/${url}`, remoteAddress: randomIp(), payload: body });

  /** registeremail, then the pin read from the e-mail sent for it. */
  async function register(body: object): Promise<{ once: string; pin: string }> {
    const seen = mail.received.length;
    const res = await post('registeremail', { email: grace, beta: false, ...body });
    expect(res.statusCode).toBe(200);
    const { once } = res.json<{ once: string }>();
    const received = await mail.waitFor(seen + 1);
    return { once, pin: pinOf(received[seen]!) };
  }

  it('ends the replaced pin: the old once and pin are refused as dead, the new ones confirm', async () => {
    const first = await register({});
    const second = await register({ previousOnce: first.once });
    expect(second.once).not.toBe(first.once);

    const old = await post('validatepin', { email: grace, once: first.once, pin: first.pin });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({
      title: PIN_INVALID,
      detail: expect.stringContaining('can no longer be used'),
      errors: [{ field: 'pin', message: PIN_INVALID }],
    });

    const latest = await post('validatepin', { email: grace, once: second.once, pin: second.pin });
    expect(latest.statusCode).toBe(204);
  });

  it('without previousOnce leaves an earlier sign-up of the address alone (another tab may be using it)', async () => {
    const first = await register({});
    await register({});
    const res = await post('validatepin', { email: grace, once: first.once, pin: first.pin });
    expect(res.statusCode).toBe(204);
  });

  it('refuses an over-long previousOnce with 400; an unknown one changes nothing', async () => {
    const tooLong = await post('registeremail', {
      email: grace,
      beta: false,
      previousOnce: 'x'.repeat(5000),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ errors: [{ field: 'previousOnce' }] });
    // An unknown once changes nothing and still sends the new pin.
    const fresh = await register({ previousOnce: 'vxu_unknown' });
    const res = await post('validatepin', { email: grace, once: fresh.once, pin: fresh.pin });
    expect(res.statusCode).toBe(204);
  });
});
