import { createHash } from 'node:crypto';

/**
 * Events waiting for storage, shared fairly between the environments sending them: each may hold
 * `total / environments waiting` (counting itself), and one that holds nothing is always let in, so
 * a quiet environment has room however hard another floods. Admitted events are released when
 * their request is answered.
 */
export function createFairShare(total: number) {
  const held = new Map<string, number>();
  return {
    /** Takes `units` for the environment; false when that would pass its share. */
    take(environmentId: string, units: number): boolean {
      const mine = held.get(environmentId) ?? 0;
      const waiting = held.size + (mine === 0 ? 1 : 0);
      if (mine > 0 && mine + units > Math.floor(total / waiting)) return false;
      held.set(environmentId, mine + units);
      return true;
    },
    release(environmentId: string, units: number) {
      const left = (held.get(environmentId) ?? 0) - units;
      if (left > 0) held.set(environmentId, left);
      else held.delete(environmentId);
    },
    held: (environmentId: string) => held.get(environmentId) ?? 0,
  };
}

/** Long keys are remembered by a digest, so a day's memory is bounded by the count, not by the text. */
function memo(key: string): string {
  return key.length <= 40 ? key : `\u0000${createHash('sha1').update(key).digest('base64')}`;
}

/**
 * Distinct keys seen per scope (an environment's users, a project's attribute values) in one UTC
 * day, up to `limit` each. A key already seen today always passes; a new one passes while the
 * scope has room. `onFull` runs once per scope and day, when the first key is turned away.
 */
export function createDailyBound(limit: number, onFull: (scope: string) => void) {
  let day = '';
  let seen = new Map<string, Set<string>>();
  let full = new Set<string>();
  return {
    admit(scope: string, key: string, at: Date): boolean {
      const today = at.toISOString().slice(0, 10);
      if (today !== day) {
        day = today;
        seen = new Map();
        full = new Set();
      }
      let keys = seen.get(scope);
      if (!keys) seen.set(scope, (keys = new Set()));
      const id = memo(key);
      if (keys.has(id)) return true;
      if (keys.size >= limit) {
        if (!full.has(scope)) {
          full.add(scope);
          onFull(scope);
        }
        return false;
      }
      keys.add(id);
      return true;
    },
  };
}
