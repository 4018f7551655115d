/** Rows written in statements of at most this many (PostgreSQL's parameter limit is 65,535). */
const CHUNK = 500;

/** Writes `rows` a chunk at a time, in order. */
export async function chunked<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += CHUNK) await write(rows.slice(start, start + CHUNK));
}

/*
 * Batch writes take their rows in key order: two server instances upserting the same rows then lock
 * them in the same order and cannot deadlock each other.
 */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
