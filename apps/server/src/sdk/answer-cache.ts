/**
 * Recent SDK answers (JS client evaluate, OFREP bulk), serialised, so that a browser polling for the
 * same user costs a lookup instead of an evaluation of every flag (docs/architecture.md "Scale").
 *
 * An answer is stored under the version of the payload it was computed from (the snapshot's ETag)
 * and the exact request inputs; it is a pure function of both, so it is served only while that
 * version is current. Answers that depend on the clock are never stored (the callers check
 * `readsClock` of the snapshot). When an environment's payload changes, the answers of its previous
 * version are dropped at once; the rest leave in least-recently-used order when the cache holds
 * more than `maxEntries` answers or `maxBytes`. An answer over `maxEntryBytes` is not stored.
 *
 * A Map in recency order (a hit moves its entry to the end) rather than a library: the cache also
 * needs the answers of one version, to drop them when the version is superseded.
 *
 * Callers store an answer only the second time its inputs are asked (`admit`): a browser polling
 * the same user is cached from its second poll, while a stream of users each seen once (a server
 * evaluating every visitor) costs a remembered key each instead of filling the cache with answers
 * nobody asks for again.
 */

export type AnswerCacheLimits = {
  maxEntries: number;
  /** Bodies, ETags and keys, approximately (a string counts one byte a character). */
  maxBytes: number;
  maxEntryBytes: number;
};

export const DEFAULT_ANSWER_CACHE_LIMITS: AnswerCacheLimits = {
  maxEntries: 10_000,
  maxBytes: 32 * 1024 * 1024,
  maxEntryBytes: 256 * 1024,
};

/** What an answer costs beyond its bytes: the entry object, the Map's slot, the version's Set slot. */
const ENTRY_OVERHEAD = 160;

export type CachedAnswer = {
  /** The answer's body, encoded once. */
  body: Buffer;
  /** The answer's ETag, when the endpoint has one (OFREP bulk). */
  etag?: string;
};

type Entry = { version: string; answer: CachedAnswer; size: number };

export type AnswerCache = ReturnType<typeof createAnswerCache>;

export function createAnswerCache(limits: AnswerCacheLimits = DEFAULT_ANSWER_CACHE_LIMITS) {
  const entries = new Map<string, Entry>();
  const byVersion = new Map<string, Set<string>>();
  /** Inputs asked once and not stored yet, oldest first; as many as the cache holds answers. */
  const seenOnce = new Set<string>();
  let bytes = 0;

  // A request asks get, then admit, then set with the same two strings: their key is joined once.
  let last = { version: '', input: '', key: '\u0000' };
  const keyOf = (version: string, input: string) => {
    if (version !== last.version || input !== last.input)
      last = { version, input, key: `${version}\u0000${input}` };
    return last.key;
  };

  function remove(key: string, entry: Entry) {
    entries.delete(key);
    bytes -= entry.size;
    const keys = byVersion.get(entry.version);
    keys?.delete(key);
    if (keys?.size === 0) byVersion.delete(entry.version);
  }

  return {
    /** The answer stored for these inputs at this version, if any (it becomes the most recent). */
    get(version: string, input: string): CachedAnswer | undefined {
      const key = keyOf(version, input);
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.answer;
    },

    /**
     * Whether an answer for these inputs is worth storing: true the second time they are asked at
     * this version (within the last `maxEntries` first sightings), false the first time.
     */
    admit(version: string, input: string): boolean {
      const key = keyOf(version, input);
      if (seenOnce.delete(key)) return true;
      seenOnce.add(key);
      if (seenOnce.size > limits.maxEntries) seenOnce.delete(seenOnce.values().next().value as string);
      return false;
    },

    /** Stores an answer, evicting the least recently used ones beyond the limits. */
    set(version: string, input: string, answer: CachedAnswer): void {
      const key = keyOf(version, input);
      const size = answer.body.length + (answer.etag?.length ?? 0) + key.length + ENTRY_OVERHEAD;
      // What was stored for these inputs goes either way: the new answer replaces it or is refused.
      const existing = entries.get(key);
      if (existing) remove(key, existing);
      if (size > limits.maxEntryBytes || size > limits.maxBytes || limits.maxEntries < 1) return;
      entries.set(key, { version, answer, size });
      bytes += size;
      const keys = byVersion.get(version);
      if (keys) keys.add(key);
      else byVersion.set(version, new Set([key]));
      while (entries.size > limits.maxEntries || bytes > limits.maxBytes) {
        const [oldestKey, oldest] = entries.entries().next().value as [string, Entry];
        remove(oldestKey, oldest);
      }
    },

    /** Drops every answer of a payload version that is no longer served. */
    dropVersion(version: string): void {
      const keys = byVersion.get(version);
      if (!keys) return;
      for (const key of keys) {
        const entry = entries.get(key);
        if (entry) remove(key, entry);
      }
      byVersion.delete(version);
    },

    /** How much it holds, for tests and metrics. */
    size(): { entries: number; bytes: number; versions: number } {
      return { entries: entries.size, bytes, versions: byVersion.size };
    },

    clear(): void {
      seenOnce.clear();
      entries.clear();
      byVersion.clear();
      bytes = 0;
    },
  };
}
