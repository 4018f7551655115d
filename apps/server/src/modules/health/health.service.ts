/** How long a passed write probe vouches for the database before /readyz writes again. */
const WRITABLE_FOR_MS = 5_000;

export type HealthService = ReturnType<typeof createHealthService>;

/**
 * Readiness (docs/adr/0007-database-faults-and-timeouts.md): the database answers, and can write.
 * A write refused for lack of space or because the database only reads makes the instance not
 * ready at once (`storageFailed`, from the error handler); from then on each /readyz tries a small
 * write, and the instance is ready again as soon as one succeeds. While the database writes, a
 * probe is made at most every 5 s, so that a disk that fills while nobody writes is noticed too.
 */
export function createHealthService(deps: {
  ping: () => Promise<void>;
  probeWrite: () => Promise<void>;
  now?: () => number;
}) {
  const now = deps.now ?? (() => performance.now());
  /** When the last probe passed; null when the last write or probe failed, or none was made. */
  let writableAt: number | null = null;

  return {
    /** Resolves when ready; rejects with the reason otherwise. */
    async ready(): Promise<void> {
      await deps.ping();
      if (writableAt !== null && now() - writableAt < WRITABLE_FOR_MS) return;
      try {
        await deps.probeWrite();
        writableAt = now();
      } catch (error) {
        writableAt = null;
        throw error;
      }
    },

    /** A write failed because the database cannot store anything now. */
    storageFailed(): void {
      writableAt = null;
    },
  };
}
