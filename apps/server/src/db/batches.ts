import type { SQLWrapper } from 'drizzle-orm';
import type { Executor } from './client';

/** Rows written in statements of at most this many (PostgreSQL's parameter limit is 65,535). */
const CHUNK = 500;

/**
 * The statements of a batch write, one per chunk of `rows`, built but not run: a caller that writes
 * several tables at once may join them into one statement (sdk/ingestion.repository.ts) or run them
 * in turn ({@link runEach}).
 */
export function chunkStatements<T>(rows: T[], statement: (chunk: T[]) => SQLWrapper): SQLWrapper[] {
  const statements: SQLWrapper[] = [];
  for (let start = 0; start < rows.length; start += CHUNK)
    statements.push(statement(rows.slice(start, start + CHUNK)));
  return statements;
}

/** Runs statements one after another on `db`, answering their results in order. */
export async function runEach(db: Executor, statements: SQLWrapper[]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const statement of statements) results.push(await db.execute(statement));
  return results;
}

/*
 * Batch writes take their rows in key order: two server instances upserting the same rows then lock
 * them in the same order and cannot deadlock each other.
 */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
