import { setTimeout as sleep } from 'node:timers/promises';

/*
 * Work done after the answer, never delaying it: posting to the chat service, commenting on an issue,
 * refreshing an issue's title. Each task is tracked, so that the server waits for them on close (and
 * tests can wait for them); retries sleep with backoff and stop when the server closes.
 */

/** One attempt's outcome: done, or failed and whether to try again (after at least `retryAfterMs`). */
export type AttemptOutcome =
  { ok: true } | { ok: false; retry: boolean; reason: string; retryAfterMs?: number | undefined };

/** Chat posts and issue comments: 1 s, 5 s, 30 s, 2 min, then 10 min; Retry-After is honoured up to 10 min. */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];
const MAX_RETRY_AFTER_MS = 600_000;

export type Background = ReturnType<typeof createBackground>;

export function createBackground(deps: {
  /** The waits between attempts; the number of retries is their count. */
  retryDelaysMs?: number[];
  onError: (error: unknown) => void;
}) {
  const delays = deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const running = new Set<Promise<void>>();
  const stopping = new AbortController();

  return {
    /** Runs `task` after the current request, tracked; its failure is reported, never thrown. */
    run(task: (signal: AbortSignal) => Promise<void>): void {
      if (stopping.signal.aborted) return;
      const promise = Promise.resolve()
        .then(() => task(stopping.signal))
        .catch((error: unknown) => {
          if (!stopping.signal.aborted) deps.onError(error);
        })
        .finally(() => running.delete(promise));
      running.add(promise);
    },

    /**
     * Tries `attempt` until it succeeds, fails for good, or the retries are spent; the last outcome.
     * `signal` (the task's) stops the waits when the server closes.
     */
    async withRetries(attempt: () => Promise<AttemptOutcome>, signal: AbortSignal): Promise<AttemptOutcome> {
      let outcome = await attempt();
      for (const delay of delays) {
        if (outcome.ok || !outcome.retry || signal.aborted) return outcome;
        const wait = Math.max(delay, Math.min(outcome.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
        try {
          await sleep(wait, undefined, { signal });
        } catch {
          return outcome;
        }
        outcome = await attempt();
      }
      return outcome;
    },

    /** Whether a task is under way. */
    busy: () => running.size > 0,

    /** Resolves once every task (including those they start) has finished. */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },

    /** Stops the waits and lets the tasks under way end. */
    async stop(): Promise<void> {
      stopping.abort();
      await Promise.allSettled([...running]);
    },
  };
}
