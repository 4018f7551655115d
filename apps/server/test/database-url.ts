export const TEMPLATE_DATABASE = 'vexil_test_template';

/** The server suite runs on PGlite, and again on PostgreSQL in the `server-pg` project. */
export function testDatabaseKind(requested = process.env.VEXIL_TEST_DB): 'pglite' | 'pg' {
  return requested === 'pg' && process.env.TEST_DATABASE_URL ? 'pg' : 'pglite';
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
