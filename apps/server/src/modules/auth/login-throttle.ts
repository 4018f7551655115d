import { RateLimiterMemory } from 'rate-limiter-flexible';

/** Wrong passwords forgiven before any wait: plenty for a person, few for a guesser. */
const FREE_FAILURES = 4;
const FIRST_WAIT_SECONDS = 10;
const MAX_WAIT_SECONDS = 15 * 60;
/** A run of failures is forgotten after this long without another one. */
const FORGET_AFTER_SECONDS = 60 * 60;

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/**
 * Slows password guessing per e-mail and client address: each failure past the free ones makes the
 * next attempt wait twice as long. Keyed by address as well as e-mail so that nobody can lock an
 * owner out of their own account from elsewhere, and by e-mail whether or not the account exists so
 * that the answers never tell which accounts do. In memory: each instance counts its own attempts.
 */
export function createLoginThrottle() {
  const failures = new RateLimiterMemory({
    keyPrefix: 'login-failures',
    points: Number.MAX_SAFE_INTEGER,
    duration: FORGET_AFTER_SECONDS,
  });
  // Only block() and get(): a key is blocked while it holds more than its one point.
  const waits = new RateLimiterMemory({ keyPrefix: 'login-waits', points: 1, duration: 1 });

  return {
    /** Seconds until this e-mail may be tried again from this address; 0 when it may be now. */
    async secondsToWait(key: string): Promise<number> {
      const wait = await waits.get(key);
      if (!wait || wait.consumedPoints <= 1 || wait.msBeforeNext <= 0) return 0;
      return Math.ceil(wait.msBeforeNext / 1000);
    },

    async failed(key: string): Promise<void> {
      const count = ((await failures.get(key))?.consumedPoints ?? 0) + 1;
      await failures.set(key, count, FORGET_AFTER_SECONDS);
      if (count > FREE_FAILURES) {
        const seconds = Math.min(MAX_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** (count - FREE_FAILURES - 1));
        await waits.block(key, seconds);
      }
    },

    async succeeded(key: string): Promise<void> {
      await Promise.all([failures.delete(key), waits.delete(key)]);
    },
  };
}

/** The throttle's key: one e-mail of one organisation, tried from one address. */
export function loginThrottleKey(domain: string, email: string, ip: string | null): string {
  return JSON.stringify([domain.toLowerCase(), email.trim().toLowerCase(), ip ?? '']);
}
