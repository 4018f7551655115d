/** The options of the SDK event ingestion (ingestion.ts), all with defaults. */
export type IngestionOptions = {
  /**
   * Longest a request waits for the flush that stores it to start when its lane is idle: 0 starts it
   * on the event loop's next turn (it starts at once when the lane's previous write ends).
   */
  flushIntervalMs?: number;
  /** Events waiting for storage across all environments, shared fairly between them. */
  maxPendingEvents?: number;
  /** Events one transaction takes from its lane (at least one request): a backlog is written in parts. */
  maxGroupEvents?: number;
  /** New SDK users recorded per environment per UTC day; past it impressions still count. */
  maxUsersPerDay?: number;
  /** New attribute values (targeting suggestions) recorded per project per UTC day. */
  maxValuesPerDay?: number;
  /** New goal keys and variants unknown to their feature recorded per environment per UTC day. */
  maxNamesPerDay?: number;
  /** Tries of one flush that fails for no fault of its rows, with doubling delays between. */
  maxAttempts?: number;
  retryDelayMs?: number;
  /** No further try of a group once this long has passed since its first: its requests get 503. */
  maxRetryMs?: number;
  /**
   * A write unanswered for this long means the database is unreachable (a cut network answers
   * nothing until the driver's own timeout): requests not yet in that write are answered 503 at once,
   * and so are new ones until a write succeeds again.
   */
  stallMs?: number;
  /** Retry-After of a 429 (an environment past its share) and of a 503 (storage down). */
  busyRetryAfterSeconds?: number;
  unavailableRetryAfterSeconds?: number;
  /**
   * Writers that store groups side by side, each on a connection of its own: an environment stays
   * on one while it has events waiting, and one with none joins the least loaded, so a tenant's
   * flood fills its lane and the others' events are stored beside it rather than behind it.
   */
  lanes?: number;
};

/** The options' values when not given (docs/adr/0008-event-ingestion-group-commit.md). */
export const INGESTION_DEFAULTS: Required<IngestionOptions> = {
  flushIntervalMs: 0,
  maxPendingEvents: 200_000,
  maxGroupEvents: 2_000,
  maxUsersPerDay: 100_000,
  maxValuesPerDay: 10_000,
  maxNamesPerDay: 1_000,
  maxAttempts: 4,
  retryDelayMs: 100,
  maxRetryMs: 3_000,
  stallMs: 2_000,
  busyRetryAfterSeconds: 60,
  unavailableRetryAfterSeconds: 5,
  lanes: 3,
};
