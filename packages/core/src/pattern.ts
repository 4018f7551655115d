import { RE2JS } from 're2js';

/**
 * Patterns of the `matches` operator, run with RE2's linear-time engine (re2js, pure JavaScript):
 * a rule is user input evaluated against user input on the SDK hot path, so a pattern such as
 * `(a+)+$` must not be able to backtrack for seconds. RE2 syntax is what the Go SDK uses; features
 * it lacks (look-around, back-references) make a pattern invalid.
 */

/** A compiled pattern: `test` searches (not full-matches), as the Node and Go SDKs do. */
export type Pattern = { test(text: string): boolean };

const CACHE_LIMIT = 500;
const cache = new Map<string, Pattern | null>();

/** Compiles `source`, or returns null when RE2 rejects it. Compiled patterns are cached. */
export function compilePattern(source: string): Pattern | null {
  const cached = cache.get(source);
  if (cached !== undefined) return cached;
  let compiled: Pattern | null;
  try {
    const re = RE2JS.compile(source);
    compiled = { test: (text) => re.matcher(text).find() };
  } catch {
    compiled = null;
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(source, compiled);
  return compiled;
}

/** Whether `source` is a pattern the `matches` operator can run. */
export function isValidPattern(source: string): boolean {
  return compilePattern(source) !== null;
}
