import { createSharedCounters } from '../db/counters';
import type { Database } from '../db/client';
import { TooManyRequestsError } from '../errors';
import { MailDeliveryError, type Mailer, type MailMessage } from './mailer';

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

/** Where a failed e-mail is reported; never its address or its link. */
export type OutboxLogger = { warn: (details: Record<string, unknown>, message: string) => void };

/**
 * E-mails sent, and work done, after the answer: an endpoint that must answer alike whether or not
 * an address has an account cannot wait for the mail server, whose delay (or failure) would tell,
 * nor for the reads and writes only an account needs.
 */
export function createOutbox(deps: { mailer: Mailer; logger: OutboxLogger }) {
  const { mailer, logger } = deps;
  const pending = new Set<Promise<void>>();
  return {
    post(message: MailMessage, what: string): void {
      if (!mailer.configured) {
        logger.warn({ mail: what }, `A ${what} e-mail was not sent: mail is not configured (SMTP_URL)`);
        return;
      }
      const sending = mailer
        .send(message)
        .catch((error: unknown) => {
          const delivery = error instanceof MailDeliveryError ? error : null;
          logger.warn(
            { mail: delivery?.diagnostics ?? { code: null }, reason: delivery?.reason ?? null },
            `A ${what} e-mail could not be sent`,
          );
        })
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    /**
     * Runs `work` once the answer is on its way (the next turn of the event loop); a failure is
     * logged, for the client was already answered.
     */
    later(what: string, work: () => Promise<void>): void {
      const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(work)
        .catch((error: unknown) => {
          logger.warn({ err: error }, `A ${what} request could not be completed`);
        })
        .finally(() => pending.delete(running));
      pending.add(running);
    },
    /** Resolves once the work and e-mails posted so far (and what they posted) are done or given up. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
