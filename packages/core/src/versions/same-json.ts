/** `value` as JSON with every object's keys sorted and undefined members dropped (as jsonb stores it). */
export function canonicalJson(value: unknown): string {
  const json = JSON.stringify(value, (_key, member: unknown) => {
    if (typeof member !== 'object' || member === null || Array.isArray(member)) return member;
    const entries = Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  }) as string | undefined;
  return json ?? 'undefined';
}

/**
 * Whether two values are equal as JSON: the order of keys and members that are undefined do not
 * count, so a snapshot read back from jsonb equals the one written.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
