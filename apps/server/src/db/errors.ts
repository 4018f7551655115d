/**
 * Recognises PostgreSQL errors through Drizzle's wrapper, for both drivers (node-postgres and
 * PGlite report the SQLSTATE as `code` and the index as `constraint`).
 */
type PgErrorFields = { code?: unknown; constraint?: unknown; cause?: unknown };

function pgErrorOf(error: unknown): PgErrorFields | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const fields = current as PgErrorFields;
    if (typeof fields.code === 'string') return fields;
    current = fields.cause;
  }
  return null;
}

/** True when `error` is a foreign-key violation (23503): a referenced row is gone. */
export function isForeignKeyViolation(error: unknown): boolean {
  return pgErrorOf(error)?.code === '23503';
}

/**
 * True when the rows written caused `error`, so writing them again fails the same way: a data
 * exception (class 22: NUL, bad encoding, a date out of range), an integrity violation (23), a
 * cardinality violation (21) or a row past a limit (54).
 */
export function isDataError(error: unknown): boolean {
  const code = pgErrorOf(error)?.code;
  return typeof code === 'string' && /^(21|22|23|54)[0-9A-Z]{3}$/.test(code);
}

/** True when `error` is a unique violation (23505), of the named index when one is given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = pgErrorOf(error);
  if (!pg || pg.code !== '23505') return false;
  return constraint === undefined || pg.constraint === constraint;
}

/**
 * SQLSTATEs that say the database, not the request, failed: connection exceptions (class 08),
 * administrator shutdown or termination, crash, "cannot connect now", too many connections, and a
 * statement cancelled by `statement_timeout` (57014).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '25P03']);
/** Socket errors on the way to the database. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres and pg-pool report lost connections and their own timeouts by message only. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // …unexpectedly, …due to connection timeout
  /^Query read timeout$/,
  /^timeout expired$/, // the client's connectionTimeoutMillis
  /^timeout exceeded when trying to connect$/, // the pool's connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
];

/**
 * True when `error`, or an error in its cause chain (Drizzle wraps the driver's), says the database
 * could not be reached or dropped the connection: the request may succeed if retried.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someCause(error, ({ code, message }) => {
    if (typeof code === 'string') {
      if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code))
        return true;
    }
    return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
  });
}

/**
 * SQLSTATEs of a database that cannot store anything: its disk is full (53100, "could not extend
 * file"), a write to its files failed (58030), or it only reads (25006: a standby, or
 * `default_transaction_read_only`).
 */
const UNWRITABLE_SQLSTATES = new Set(['53100', '58030', '25006']);
/** The file system's own words, when they reach us without a SQLSTATE. */
const UNWRITABLE_SYSTEM_CODES = new Set(['ENOSPC', 'EROFS', 'EDQUOT']);
const UNWRITABLE_MESSAGES = [/No space left on device/, /Read-only file system/, /Disk quota exceeded/];

/**
 * True when `error` says the database cannot write, not that the request was wrong: the same write
 * succeeds once space is freed or the database is writable again (docs/adr/0007).
 */
export function isStorageUnwritable(error: unknown): boolean {
  return someCause(error, ({ code, message }) => {
    if (typeof code === 'string' && (UNWRITABLE_SQLSTATES.has(code) || UNWRITABLE_SYSTEM_CODES.has(code)))
      return true;
    return typeof message === 'string' && UNWRITABLE_MESSAGES.some((pattern) => pattern.test(message));
  });
}

/** True when `test` holds for `error` or an error in its cause chain (Drizzle wraps the driver's). */
function someCause(
  error: unknown,
  test: (fields: { code?: unknown; message?: unknown }) => boolean,
): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if (test(current as { code?: unknown; message?: unknown })) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** SQLSTATEs of a session the server ended: an operator or a shutdown terminated the backend. */
const ENDED_SESSION_SQLSTATES = new Set(['57P01', '57P02']);
/** The connection died under a statement, or before it was sent. */
const LOST_CONNECTION_MESSAGES = [
  /^Connection terminated unexpectedly$/,
  /^Client has encountered a connection error and is not queryable$/,
];

/**
 * True when `error` says the connection itself was lost (its session ended or its socket broke),
 * not that the database is slow or refusing: the work of an uncommitted transaction on it is
 * undone, and another connection may well succeed. Timeouts do not count: trying again would only
 * wait as long again.
 */
export function isConnectionLost(error: unknown): boolean {
  return someCause(
    error,
    ({ code, message }) =>
      (typeof code === 'string' &&
        (ENDED_SESSION_SQLSTATES.has(code) || code === 'ECONNRESET' || code === 'EPIPE')) ||
      (typeof message === 'string' && LOST_CONNECTION_MESSAGES.some((pattern) => pattern.test(message))),
  );
}
