import { NUL_MESSAGE } from '@vexil/core';
import type { FieldError } from '../errors';

export const SURROGATE_MESSAGE = 'Must not contain unpaired surrogate characters.';

/** In a `u` regular expression a surrogate pair is one code point: only a lone half matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;

function problemOf(text: string): string | null {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return null;
}

/** A node of the walk: its key and its parent, so a path is built only for the field reported. */
type Step = { key: string; parent: Step | null };

function pathOf(step: Step | null): string[] {
  const keys: string[] = [];
  for (let at = step; at; at = at.parent) keys.push(at.key);
  return keys.reverse();
}

/**
 * The first string (value or object key) in parsed JSON that PostgreSQL cannot store: a NUL, or a
 * lone UTF-16 surrogate (no UTF-8 form). `field` is the dotted path, as validation errors name fields.
 * Walks with its own stack, so a deeply nested body cannot overflow the call stack, and in time
 * linear in the body: each node holds only its key and parent, never a copy of its path.
 */
export function findUnstorableText(value: unknown, prefix?: string): FieldError | null {
  const root: Step | null = prefix ? { key: prefix, parent: null } : null;
  const pending: { value: unknown; step: Step | null }[] = [{ value, step: root }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { value: current, step } = item;
    if (typeof current === 'string') {
      const message = problemOf(current);
      if (message) return { field: pathOf(step).join('.') || '(body)', message };
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (const [key] of entries) {
        const message = problemOf(key);
        if (message) return { field: [...pathOf(step), key].join('.'), message };
      }
      // Reversed onto the stack, so the first bad field in document order is the one named.
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index]!;
        pending.push({ value: child, step: { key, parent: step } });
      }
    }
  }
  return null;
}
