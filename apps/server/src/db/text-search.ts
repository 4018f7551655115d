/**
 * An `ilike` pattern for "contains `text`", any case: `%`, `_` and `\` in the text match themselves.
 * Every search box of the API goes through it, so none can be turned into a wildcard.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path segment that may be a key or an id has the shape of an id (a uuid column accepts it). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
