import { DAY_MS } from '@vexil/core';
import type { Database } from '../../db/client';
import type { OutgoingFetch } from '../../lib/outgoing-url';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box';
import type { IntegrationsLogger } from './access';
import type { AttemptRecord, DeliveryRecord, WebhookRecord } from './integrations.types';
import { failureReason, retryAfterMs } from './slack-adapter';
import { webhookHeaders } from './webhook-signature';
import * as repo from './webhooks.repository';

/**
 * The waits before each retry of a failed delivery: 10 s, 1 min, 5 min, 30 min, 2 h, 5 h, then 10 h,
 * until 24 hours after the event, when the delivery fails for good.
 */
export const WEBHOOK_RETRY_DELAYS_S = [10, 60, 300, 1_800, 7_200, 18_000, 36_000];
/** How long after its event a delivery is still tried. */
export const WEBHOOK_RETRY_WINDOW_MS = DAY_MS;
/** How long one attempt may take. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How long a taken delivery is left to its worker before another may take it again. */
const LEASE_MS = 2 * 60 * 1000;
/** How many deliveries one pass takes at a time, and sends side by side. */
const BATCH = 10;
/** The delivery log keeps 30 days. */
const KEEP_DELIVERIES_MS = 30 * 24 * 60 * 60 * 1000;

/** The event type of a test delivery, which is never retried. */
export const TEST_EVENT = 'webhook.test';

/** What a webhook's signing secret is encrypted for. */
export const webhookSecretContext = (webhookId: string) => `webhook.secret:${webhookId}`;

/**
 * The webhook delivery worker (docs/adr/0017-integrations-and-outgoing-requests.md): takes the due
 * deliveries a batch at a time under a lease, sends each signed, and records the outcome, retrying with
 * backoff for 24 hours; one pass at a time on this instance, instances sharing the rows.
 */
export function createWebhookWorker(deps: {
  db: Database;
  secrets: SecretBox;
  /** The guarded fetch (lib/outgoing-url.ts), with its 10 s timeout and no redirects. */
  fetch: OutgoingFetch;
  enabled: boolean;
  logger: IntegrationsLogger;
  /** How often the worker looks for deliveries that came due (0: only when woken). */
  pollMs?: number;
  now?: () => Date;
}) {
  const { db, secrets, logger } = deps;
  const now = deps.now ?? (() => new Date());

  /** One attempt of a delivery; its outcome as recorded (a test delivery is never retried). */
  async function attempt(delivery: DeliveryRecord, webhook: WebhookRecord | null): Promise<AttemptRecord> {
    const attempts = delivery.attempts + 1;
    const finished = (error: string): AttemptRecord => ({
      status: 'failed',
      attempts,
      responseCode: null,
      durationMs: null,
      error,
      nextAttemptAt: null,
      lastAttemptAt: now(),
    });
    const isTest = delivery.eventType === TEST_EVENT;
    if (!webhook) return finished('The webhook was removed.');
    if (!webhook.enabled && !isTest) return finished('The webhook is turned off.');
    let secret: string;
    try {
      secret = secrets.decrypt(webhook.secretEncrypted, webhookSecretContext(webhook.id));
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      return finished('The signing secret can no longer be read (SECRETS_KEY has changed): rotate it.');
    }
    const sentAt = now();
    const started = performance.now();
    let responseCode: number | null = null;
    let error: string | null = null;
    let wait: number | undefined;
    try {
      const response = await deps.fetch(webhook.url, {
        method: 'POST',
        headers: webhookHeaders(secret, delivery.messageId, sentAt, delivery.payload),
        body: delivery.payload,
      });
      responseCode = response.status;
      if (!response.ok) {
        error =
          response.status >= 300 && response.status < 400
            ? `HTTP ${response.status}: redirects are not followed.`
            : `HTTP ${response.status}.`;
        wait = retryAfterMs(response.headers.get('retry-after'));
      }
    } catch (failure) {
      const reason = failureReason(failure);
      error = `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;
    }
    const durationMs = Math.round(performance.now() - started);
    const at = now();
    if (error === null)
      return {
        status: 'succeeded',
        attempts,
        responseCode,
        durationMs,
        error,
        nextAttemptAt: null,
        lastAttemptAt: at,
      };
    const delay = WEBHOOK_RETRY_DELAYS_S[Math.min(attempts, WEBHOOK_RETRY_DELAYS_S.length) - 1]! * 1000;
    const next = new Date(at.getTime() + Math.max(delay, wait ?? 0));
    const giveUp = isTest || next.getTime() > delivery.createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS;
    return {
      status: giveUp ? 'failed' : 'pending',
      attempts,
      responseCode,
      durationMs,
      error,
      nextAttemptAt: giveUp ? null : next,
      lastAttemptAt: at,
    };
  }

  // The delivery worker: one pass at a time on this instance; instances share the rows.
  let pass: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let lastPrune = 0;

  async function runPass(): Promise<void> {
    for (let rounds = 0; rounds < 100 && !stopped; rounds++) {
      const at = now();
      const due = await repo.claimDueDeliveries(db, at, new Date(at.getTime() + LEASE_MS), BATCH);
      if (due.length === 0) break;
      const hooks = new Map(
        (await repo.webhooksByIds(db, [...new Set(due.map((d) => d.webhookId))])).map((w) => [w.id, w]),
      );
      await Promise.all(
        due.map(async (delivery) => {
          const outcome = await attempt(delivery, hooks.get(delivery.webhookId) ?? null);
          await repo.recordAttempt(db, delivery.id, outcome);
          if (outcome.status === 'failed')
            logger.warn(
              {
                webhookId: delivery.webhookId,
                deliveryId: delivery.id,
                attempts: outcome.attempts,
                reason: outcome.error,
              },
              'A webhook delivery failed for good',
            );
        }),
      );
    }
    const at = now().getTime();
    if (at - lastPrune > 60 * 60 * 1000) {
      lastPrune = at;
      await repo.pruneDeliveries(db, new Date(at - KEEP_DELIVERIES_MS));
    }
  }

  /** Sends what is due, now, after the current request; a pass under way runs once more. */
  function wake(): void {
    if (stopped) return;
    if (pass) {
      again = true;
      return;
    }
    pass = (async () => {
      do {
        again = false;
        try {
          await runPass();
        } catch (error) {
          logger.warn({ err: error }, 'The webhook delivery worker failed; it tries again at its next pass');
        }
      } while (again && !stopped);
    })().finally(() => {
      pass = null;
    });
  }

  return {
    /** Whether a pass is under way. */
    busy: (): boolean => pass !== null,

    /** Resolves once the pass under way (and any it queued) has finished. */
    async settled(): Promise<void> {
      while (pass) await pass;
    },

    /** Starts looking for due deliveries every `pollMs`. */
    start(): void {
      stopped = false;
      const pollMs = deps.pollMs ?? 5_000;
      if (deps.enabled && pollMs > 0 && !timer) {
        timer = setInterval(wake, pollMs);
        timer.unref();
      }
      if (deps.enabled) wake();
    },

    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      while (pass) await pass;
    },
    wake,
    /** One attempt of a delivery now (a test delivery is sent at once, outside the queue). */
    attempt,
  };
}
