import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { signups } from '../../db/schema/index';
import { hashToken } from '../../lib/tokens';
import { randomIp } from '../../../test/helpers';
import {
  setUpSignupWizard,
  PIN_INVALID,
  pinOf,
  h,
  mail,
  acme,
  grace,
  post,
  register,
  settle,
} from './signup-wizard.routes.fixture';

setUpSignupWizard();

describe('sign-up wizard', () => {
  describe('POST /api/v1/signup/registeremail', () => {
    it('answers a once and e-mails a 6-digit pin, in plain text and HTML', async () => {
      const res = await post('registeremail', { email: grace.toUpperCase(), beta: true });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ once: expect.stringMatching(/^vxu_[A-Za-z0-9_-]{43}$/) });
      const [received] = await mail.waitFor(1);
      expect(received!.to).toEqual([grace]);
      const pin = pinOf(received!);
      expect(received!.message.subject).toBe(`${pin} is your Vexil sign-up pin`);
      expect(received!.message.text).toContain('within 15 minutes');
      expect(received!.message.html).toContain(`>${pin}</p>`);
      // Neither the pin nor the once is stored in clear.
      const [row] = await h.database.db.select().from(signups);
      expect(row!.email).toBe(grace);
      expect(row!.beta).toBe(true);
      expect(JSON.stringify(row)).not.toContain(pin);
      expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(15 * 60 * 1000);
    });

    it('answers an address that already has an account exactly like a new one, and e-mails both', async () => {
      const known = await post('registeremail', { email: acme.email, beta: false });
      const unknown = await post('registeremail', { email: 'new@example.com', beta: false });
      expect(known.statusCode).toBe(unknown.statusCode);
      expect(Object.keys(known.json())).toEqual(Object.keys(unknown.json()));
      expect(known.json<{ once: string }>().once).toHaveLength(unknown.json<{ once: string }>().once.length);
      expect(known.headers['content-type']).toBe(unknown.headers['content-type']);
      const received = await mail.waitFor(2);
      expect(received.map((m) => m.to[0]).sort()).toEqual([acme.email, 'new@example.com'].sort());
    });

    it('refuses a bad e-mail with the form message', async () => {
      const res = await post('registeremail', { email: 'not-an-email', beta: false });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        errors: [{ field: 'email', message: 'not-an-email is not a valid email.' }],
      });
    });

    it('sends one address 5 pins an hour, then answers 429, whatever the client address', async () => {
      for (let i = 0; i < 5; i++)
        expect((await post('registeremail', { email: 'busy@example.com', beta: false })).statusCode).toBe(
          200,
        );
      const res = await post('registeremail', { email: 'BUSY@example.com', beta: false });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({
        title: 'Too many e-mails were asked for this address. Please wait and try again later.',
      });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      await settle();
      expect(mail.received).toHaveLength(5);
    });

    it('lets one client address ask 10 times per 15 minutes', async () => {
      const ip = randomIp();
      for (let i = 0; i < 10; i++)
        expect(
          (await post('registeremail', { email: `p${i}@example.com`, beta: false }, ip)).statusCode,
        ).toBe(200);
      expect((await post('registeremail', { email: 'p10@example.com', beta: false }, ip)).statusCode).toBe(
        429,
      );
    });
  });

  describe('POST /api/v1/signup/validatepin', () => {
    it('accepts the e-mailed pin', async () => {
      const { once, pin } = await register(grace);
      const res = await post('validatepin', { email: grace, once, pin });
      expect(res.statusCode).toBe(204);
      // Validating again (the user went back) still works.
      expect((await post('validatepin', { email: grace, once, pin })).statusCode).toBe(204);
    });

    it('refuses a wrong pin, a pin that is not 6 digits, and another address’s pin', async () => {
      const { once, pin } = await register(grace);
      const wrong = String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
      const res = await post('validatepin', { email: grace, once, pin: wrong });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        title: PIN_INVALID,
        errors: [{ field: 'pin', message: PIN_INVALID }],
      });
      const short = await post('validatepin', { email: grace, once, pin: '12a45' });
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({ errors: [{ field: 'pin', message: PIN_INVALID }] });
      const other = await post('validatepin', { email: 'someone@example.com', once, pin });
      expect(other.statusCode).toBe(400);
      expect(other.json()).toMatchObject({ title: PIN_INVALID });
    });

    it('kills the pin after 5 wrong tries, even for the right one', async () => {
      const { once, pin } = await register(grace);
      const wrong = String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 4; i++) {
        const res = await post('validatepin', { email: grace, once, pin: wrong });
        expect(res.json()).toMatchObject({ title: PIN_INVALID });
        expect(res.json<{ detail?: string }>().detail).toBeUndefined();
      }
      const fifth = await post('validatepin', { email: grace, once, pin: wrong });
      expect(fifth.json()).toMatchObject({
        title: PIN_INVALID,
        detail: expect.stringContaining('Ask for a new pin'),
      });
      const right = await post('validatepin', { email: grace, once, pin });
      expect(right.statusCode).toBe(400);
      expect(right.json()).toMatchObject({
        title: PIN_INVALID,
        detail: expect.stringContaining('Ask for a new pin'),
      });
    });

    it('refuses a pin after 15 minutes', async () => {
      const { once, pin } = await register(grace);
      await h.database.db
        .update(signups)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(signups.onceTokenHash, hashToken(once)));
      const res = await post('validatepin', { email: grace, once, pin });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ title: PIN_INVALID });
    });

    it('refuses an unknown once', async () => {
      const res = await post('validatepin', { email: grace, once: 'vxu_nope', pin: '123456' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ title: PIN_INVALID });
    });
  });
});
