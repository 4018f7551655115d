import type { SharedCounters } from '../../db/counters';

/** Wrong passwords forgiven before any wait: plenty for a person, few for a guesser. */
export const FREE_FAILURES = 4;
const FIRST_WAIT_SECONDS = 10;
const MAX_WAIT_SECONDS = 15 * 60;
/** A run of failures is forgotten after this long without another one. */
const FORGET_AFTER_SECONDS = 60 * 60;

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/**
 * Slows password guessing per e-mail and client address: each failure past the free ones makes the
 * next attempt wait twice as long. Keyed by address as well as e-mail so that nobody can lock an
 * owner out of their own account from elsewhere, and by e-mail whether or not the account exists so
 * that the answers never tell which accounts do. Counted in the database (db/counters.ts), so that
 * every instance sees the same failures and a restart forgets none.
 */
export function createLoginThrottle(counters: SharedCounters) {
  const keyOf = (key: string) => `login:${key}`;
  return {
    /** Seconds until this e-mail may be tried again from this address; 0 when it may be now. */
    async secondsToWait(key: string): Promise<number> {
      return Math.ceil((await counters.blockedFor(keyOf(key))) / 1000);
    },

    /** Counts a failure; answers how many the run now holds. */
    async failed(key: string): Promise<number> {
      const { count } = await counters.count(keyOf(key), FORGET_AFTER_SECONDS * 1000, { slide: true });
      if (count > FREE_FAILURES) {
        const seconds = Math.min(MAX_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** (count - FREE_FAILURES - 1));
        await counters.block(keyOf(key), seconds * 1000);
      }
      return count;
    },

    async succeeded(key: string): Promise<void> {
      await counters.forget(keyOf(key));
    },
  };
}

/** The throttle's key: one e-mail of one organisation, tried from one address. */
export function loginThrottleKey(domain: string, email: string, ip: string | null): string {
  return JSON.stringify([domain.toLowerCase(), email.trim().toLowerCase(), ip ?? '']);
}
