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

/** True when `error` is a unique violation (23505), of the named index when one is given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = pgErrorOf(error);
  if (!pg || pg.code !== '23505') return false;
  return constraint === undefined || pg.constraint === constraint;
}
