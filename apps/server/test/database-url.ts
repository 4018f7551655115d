/**
 * The migrated template every PostgreSQL test database is copied from. `VEXIL_TEST_TEMPLATE` names
 * another, so that two suites run at once on one server (two checkouts, two developers) do not drop
 * each other's template.
 */
export const TEMPLATE_DATABASE = process.env.VEXIL_TEST_TEMPLATE ?? 'vexil_test_template';

/** The server suite runs on PGlite, and again on PostgreSQL in the `server-pg` project. */
export function testDatabaseKind(requested = process.env.VEXIL_TEST_DB): 'pglite' | 'pg' {
  return requested === 'pg' && process.env.TEST_DATABASE_URL ? 'pg' : 'pglite';
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
