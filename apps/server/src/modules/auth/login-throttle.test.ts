import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createHarness, randomIp, type Harness, type TestUser } from '../../../test/helpers';
import { createSharedCounters } from '../../db/counters';
import { createLoginThrottle, loginThrottleKey } from './login-throttle';

const INVALID = 'The email and password combination you have provided is invalid.';
const TOO_MANY = 'Too many failed login attempts. Please wait and try again later.';

let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  user = await h.createOrganisation({ domain: 'acme' });
});

function authenticate(username: string, password: string, remoteAddress: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/authenticate',
    payload: { username, password, domain: 'acme' },
    remoteAddress,
  });
}

async function wrongPasswords(username: string, times: number, ip: string) {
  const answers: LightMyRequestResponse[] = [];
  for (let i = 0; i < times; i++) answers.push(await authenticate(username, `wrong-${i}`, ip));
  return answers;
}

/** What a client can see of an answer, less what changes with the clock. */
function visible(res: LightMyRequestResponse) {
  const { date: _date, 'retry-after': retryAfter, 'x-ratelimit-reset': _reset, ...headers } = res.headers;
  return { status: res.statusCode, body: res.json<unknown>(), headers, waits: retryAfter !== undefined };
}

describe('repeated failed logins', () => {
  it('answer a known and an unknown e-mail identically, the wait included', async () => {
    const known = await wrongPasswords(user.email, 7, randomIp());
    const unknown = await wrongPasswords('ghost@example.com', 7, randomIp());
    expect(known.map(visible)).toEqual(unknown.map(visible));
    expect(known.map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(known[0]!.json()).toEqual({ title: INVALID, code: 'unauthenticated' });
  });

  it('make the next attempt from that address wait, with 429 and Retry-After, known or not', async () => {
    for (const email of [user.email, 'ghost@example.com']) {
      const ip = randomIp();
      await wrongPasswords(email, 5, ip);
      const refused = await authenticate(email, 'wrong-again', ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ title: TOO_MANY, code: 'rate_limited' });
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(10);
    }
  });

  it('hold the right password back too from the address that failed', async () => {
    const ip = randomIp();
    await wrongPasswords(user.email, 5, ip);
    expect((await authenticate(user.email, user.password, ip)).statusCode).toBe(429);
  });

  it('never keep the owner out when signing in from another address', async () => {
    const attacker = randomIp();
    const answers = await wrongPasswords(user.email, 15, attacker);
    expect(answers.at(-1)!.statusCode).toBe(429);
    const owner = await authenticate(user.email, user.password, randomIp());
    expect(owner.statusCode).toBe(200);
  });

  it('do not slow down another e-mail from the same address', async () => {
    const ip = randomIp();
    await wrongPasswords('ghost@example.com', 6, ip);
    expect((await authenticate(user.email, user.password, ip)).statusCode).toBe(200);
  });
});

describe('the login throttle', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('doubles the wait with each failure past the fourth and forgets them all on success', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const throttle = createLoginThrottle(createSharedCounters(h.database.db));
    const key = loginThrottleKey('acme', 'a@example.com', '203.0.113.9');
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      await throttle.failed(key);
      const wait = await throttle.secondsToWait(key);
      waits.push(wait);
      vi.setSystemTime(Date.now() + wait * 1000);
    }
    expect(waits).toEqual([0, 0, 0, 0, 10, 20, 40, 80, 160, 320]);
    await throttle.succeeded(key);
    expect(await throttle.secondsToWait(key)).toBe(0);
    for (let i = 0; i < 4; i++) await throttle.failed(key);
    expect(await throttle.secondsToWait(key)).toBe(0);
  });

  it('never makes anyone wait more than 15 minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const throttle = createLoginThrottle(createSharedCounters(h.database.db));
    const key = loginThrottleKey('acme', 'a@example.com', '203.0.113.9');
    for (let i = 0; i < 30; i++) {
      await throttle.failed(key);
      vi.setSystemTime(Date.now() + (await throttle.secondsToWait(key)) * 1000);
    }
    await throttle.failed(key);
    expect(await throttle.secondsToWait(key)).toBe(15 * 60);
  });

  it('keys by organisation, e-mail (any case) and address', () => {
    expect(loginThrottleKey('ACME', ' A@Example.com ', '203.0.113.9')).toBe(
      loginThrottleKey('acme', 'a@example.com', '203.0.113.9'),
    );
    expect(loginThrottleKey('acme', 'a@example.com', '203.0.113.9')).not.toBe(
      loginThrottleKey('acme', 'a@example.com', '203.0.113.10'),
    );
  });
});
