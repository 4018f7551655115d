/**
 * The jobs one worker holds (docs/adr/0023-durable-queue.md), by lane: the jobs of one lane run one
 * after another in the order they were added, and each other lane's first job starts at once. Every
 * job held counts against `limit`, those waiting behind a busy lane too, so the worker claims only as
 * many as it has free slots for: a single busy lane cannot make it claim jobs that would wait there
 * while their leases run out.
 */
export function createLanes<T>(options: {
  limit: number;
  /**
   * Makes one attempt at a job; it must not throw. `waited` says the job was held behind its lane
   * before it began (its lease was taken at its claim, before the wait).
   */
  run: (job: T, waited: boolean) => Promise<void>;
  /** Told each time a job is finished with and its slot is free. */
  freed: () => void;
}) {
  /** The lanes with jobs held, each with its jobs in order: the first is under way, the others wait. */
  const lanes = new Map<string, T[]>();
  let held = 0;
  let idle: { promise: Promise<void>; resolve: () => void } | null = null;

  function begin(lane: string, jobs: T[], waited: boolean): void {
    const done = () => {
      jobs.shift();
      held--;
      if (jobs.length > 0) begin(lane, jobs, true);
      else lanes.delete(lane);
      if (held === 0 && idle) {
        idle.resolve();
        idle = null;
      }
      options.freed();
    };
    options.run(jobs[0]!, waited).then(done, done);
  }

  return {
    /** How many more jobs may be taken now. */
    free: (): number => Math.max(0, options.limit - held),

    /** How many jobs are held: under way, or waiting behind their lane. */
    held: (): number => held,

    /** Holds a claimed job: it begins at once if its lane is free, else once the lane's earlier jobs end. */
    add(lane: string, job: T): void {
      held++;
      const jobs = lanes.get(lane);
      if (jobs) jobs.push(job);
      else {
        const fresh = [job];
        lanes.set(lane, fresh);
        begin(lane, fresh, false);
      }
    },

    /** Takes back the jobs waiting behind their lanes, not begun (the worker stops); those under way go on. */
    withdraw(): T[] {
      const waiting: T[] = [];
      for (const jobs of lanes.values()) waiting.push(...jobs.splice(1));
      held -= waiting.length;
      return waiting;
    },

    /** Resolves once no job is held. */
    whenIdle(): Promise<void> {
      if (held === 0) return Promise.resolve();
      if (!idle) {
        let resolve!: () => void;
        const promise = new Promise<void>((settle) => (resolve = settle));
        idle = { promise, resolve };
      }
      return idle.promise;
    },
  };
}
