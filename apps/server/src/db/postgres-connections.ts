import pg from 'pg';

/*
 * PostgreSQL connections that fail fast (docs/adr/0007-database-faults-and-timeouts.md): the limits
 * on each, and the client that survives its connection failing and notices a database gone silent.
 */

/**
 * Limits on every PostgreSQL connection, so that a database that is gone or cut off fails requests
 * in seconds instead of holding them (docs/adr/0007-database-faults-and-timeouts.md).
 */
export type DatabaseTimeouts = {
  /** Opening a connection: TCP, TLS and authentication. */
  connectMs: number;
  /** The server cancels a statement that runs longer (`statement_timeout`). */
  statementMs: number;
  /**
   * The client gives up on a statement that gets no answer for this long and drops the connection:
   * across a cut network the server's own timeout never reaches us. Above `statementMs`, so that a
   * merely slow statement is cancelled by the server and its connection stays usable.
   */
  queryMs: number;
  /** The server ends a session left idle inside a transaction (`idle_in_transaction_session_timeout`). */
  idleInTransactionMs: number;
  /** The readiness ping, from asking for a connection to the answer. */
  pingMs: number;
  /**
   * A statement (or a connection being opened) unanswered this long makes the pool ask whether
   * PostgreSQL answers at all (`probeMs`, on a connection of its own); when it does not, the
   * unanswered work fails at once instead of waiting out `queryMs` or `connectMs`.
   */
  suspectMs: number;
  /** That question's own limit, from opening its connection to the answer of `select 1`. */
  probeMs: number;
};

/** How much longer than the server's statement limit the client waits before giving up itself. */
const CLIENT_MARGIN_MS = 2_000;

/** The limits for `given`, the rest following from the statement limit (see DatabaseTimeouts). */
export function databaseTimeouts(given: Partial<DatabaseTimeouts> = {}): DatabaseTimeouts {
  const statementMs = given.statementMs ?? 10_000;
  return {
    connectMs: 5_000,
    statementMs,
    queryMs: statementMs + CLIENT_MARGIN_MS,
    idleInTransactionMs: statementMs,
    pingMs: 1_500,
    suspectMs: 500,
    probeMs: 1_000,
    ...given,
  };
}

export const DEFAULT_DATABASE_TIMEOUTS = databaseTimeouts();

/** TCP keepalive finds a dead peer on a connection nobody is using (the change relay's LISTEN). */
const KEEPALIVE_INITIAL_DELAY_MS = 10_000;

/** Connection settings shared by the pool and the change relay's own connections. */
export function postgresClientConfig(
  url: string,
  timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS,
): pg.ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.queryMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
  };
}

/**
 * Whether PostgreSQL answers at all: `select 1` on a new connection of its own, within `probeMs`.
 * One question at a time, and a "no" stands for `probeMs`, so a partition costs one probe a second
 * however many requests wait on it. An error the server sent (too many connections, starting up)
 * is an answer: only silence, a refused or unreachable address count as "no".
 */
export function createReachability(config: pg.ClientConfig, timeouts: DatabaseTimeouts) {
  let asking: Promise<boolean> | null = null;
  let silentAt = -Infinity;

  async function ask(): Promise<boolean> {
    const client = new pg.Client({
      ...config,
      connectionTimeoutMillis: timeouts.probeMs,
      query_timeout: timeouts.probeMs,
      keepAlive: false,
    });
    client.on('error', () => {});
    const deadline = setTimeout(() => abandon(client), timeouts.probeMs);
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch (error) {
      const sqlState = (error as { code?: unknown }).code;
      return typeof sqlState === 'string' && /^[0-9A-Z]{5}$/.test(sqlState);
    } finally {
      clearTimeout(deadline);
      abandon(client);
    }
  }

  return {
    /** True once PostgreSQL is known not to answer (now, or within the last `probeMs`). */
    async silent(): Promise<boolean> {
      if (performance.now() - silentAt < timeouts.probeMs) return true;
      asking ??= ask().finally(() => (asking = null));
      const answered = await asking;
      if (!answered) silentAt = performance.now();
      return !answered;
    },
  };
}

export type Reachability = ReturnType<typeof createReachability>;

/** Drops a client's socket: its connect and every statement on it fail "Connection terminated". */
function abandon(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/**
 * A node-postgres client that survives its connection failing. A client checked out of the pool
 * (for a transaction) has no listener of the pool's; without one of its own, an 'error' event
 * between two statements would be thrown out of the process. The queries waiting on it fail anyway,
 * and the pool drops the client when it comes back.
 *
 * A statement that timed out on the client side leaves the connection waiting for an answer that
 * may never come: the client is ended at once, so the statements queued behind it (a transaction's
 * rollback) fail now rather than each waiting out its own timeout.
 *
 * Given `reachability` (the pool's clients), a statement or a connect left unanswered for
 * `suspectMs` makes it ask whether PostgreSQL answers at all; if not (a cut network), the client
 * drops its socket, so the request fails with 503 within about two seconds of the cut instead of
 * waiting out `queryMs` (docs/adr/0007-database-faults-and-timeouts.md). A statement that is merely
 * slow on a database that answers is left alone.
 */
export class ResilientClient extends pg.Client {
  constructor(config?: string | (pg.ClientConfig & { reachability?: Reachability; suspectMs?: number })) {
    super(config);
    this.on('error', () => {});
    const watch =
      typeof config === 'object' && config.reachability
        ? { reachability: config.reachability, suspectMs: config.suspectMs ?? 500 }
        : null;
    const query = super.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const answered = watch ? this.watch(watch) : () => {};
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (error: unknown, result: unknown) => {
          answered();
          this.endOnTimeout(error);
          (callback as (error: unknown, result: unknown) => void)(error, result);
        };
      }
      const result = query(...args);
      if (result instanceof Promise)
        result.then(answered, (error: unknown) => {
          answered();
          this.endOnTimeout(error);
        });
      return result;
    }) as pg.Client['query'];
    if (watch) {
      const connect = super.connect.bind(this) as (callback?: (error: Error | null) => void) => unknown;
      this.connect = ((callback?: (error: Error | null) => void) => {
        const answered = this.watch(watch);
        if (callback)
          return connect((error) => {
            answered();
            callback(error);
          });
        const connecting = connect() as Promise<void>;
        connecting.then(answered, answered);
        return connecting;
      }) as pg.Client['connect'];
    }
  }

  /** Starts watching one statement or connect; the function returned says it was answered. */
  private watch(watch: { reachability: Reachability; suspectMs: number }): () => void {
    let done = false;
    const timer = setTimeout(() => {
      void watch.reachability.silent().then((silent) => {
        if (silent && !done) abandon(this);
      });
    }, watch.suspectMs);
    timer.unref();
    return () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
    };
  }

  private endOnTimeout(error: unknown) {
    if (error instanceof Error && error.message === 'Query read timeout') void this.end().catch(() => {});
  }
}
