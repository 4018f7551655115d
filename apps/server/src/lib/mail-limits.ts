import { createSharedCounters } from '../db/counters';
import type { Database } from '../db/client';
import { TooManyRequestsError } from '../errors';

export const TOO_MANY_MAILS =
  'Too many e-mails were asked for this address. Please wait and try again later.';

/**
 * How many e-mails one address may be sent by an endpoint in a window, whether or not it has an
 * account, so that the limit says nothing about accounts (docs/product.md §8). Counted in the
 * database (db/counters.ts), so that every instance counts against the same allowance and a
 * restart forgets nothing. The per-client-address limit is the route's.
 */
export function createAddressLimit(options: {
  db: Database;
  now?: () => Date;
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}) {
  const counters = createSharedCounters(options.db, options.now);
  const windowMs = options.durationSeconds * 1000;
  const keyOf = (key: string) => `${options.keyPrefix}:${key}`;
  const refusal = (msLeft: number, message: string) =>
    new TooManyRequestsError(message, Math.max(1, Math.ceil(msLeft / 1000)));
  return {
    /**
     * Counts one e-mail for each of `keys`, or for none of them: when any has spent its allowance,
     * 429 with Retry-After and `message(index)` of the first such key, and nothing is counted. For
     * a batch of recipients.
     */
    async takeAll(keys: readonly string[], message: (index: number) => string): Promise<void> {
      // In one order whatever the batch's, so that two batches sharing addresses cannot deadlock.
      const order = [...keys.keys()].sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
      await counters.transaction(async (executor) => {
        const counted = new Map<number, { count: number; msLeft: number }>();
        for (const index of order)
          counted.set(index, await counters.count(keyOf(keys[index]!), windowMs, { executor }));
        for (const index of keys.keys()) {
          const { count, msLeft } = counted.get(index)!;
          // Thrown inside the transaction: nothing is counted.
          if (count > options.points) throw refusal(msLeft, message(index));
        }
      });
    },
    /** Counts one e-mail for `key`; 429 with Retry-After once the window's allowance is spent. */
    async take(key: string): Promise<void> {
      const { count, msLeft } = await counters.count(keyOf(key), windowMs);
      if (count > options.points) throw refusal(msLeft, TOO_MANY_MAILS);
    },
  };
}
