/*
 * Work done after the answer, never delaying it, that may be lost with the instance: refreshing an
 * issue's title, adding an issue comment's job. Each task is tracked, so that the server waits for
 * them on close (and tests can wait for them). Chat posts and issue comments, which must not be lost,
 * are jobs of the durable queue, retried there (docs/adr/0023-durable-queue.md).
 */

export type Background = ReturnType<typeof createBackground>;

/** Tracked work after the answer (see above); `onError` hears of a task that failed. */
export function createBackground(deps: { onError: (error: unknown) => void }) {
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

    /** Whether a task is under way. */
    busy: () => running.size > 0,

    /** Resolves once every task (including those they start) has finished. */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },

    /** Starts no more tasks and lets those under way end. */
    async stop(): Promise<void> {
      stopping.abort();
      await Promise.allSettled([...running]);
    },
  };
}
