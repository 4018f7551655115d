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

/**
 * The first string (value or object key) in parsed JSON that PostgreSQL cannot store: a NUL, or a
 * lone UTF-16 surrogate (no UTF-8 form). `field` is the dotted path, as validation errors name fields.
 * Walks with its own stack, so a deeply nested body cannot overflow the call stack.
 */
export function findUnstorableText(value: unknown, prefix?: string): FieldError | null {
  const pending: { value: unknown; path: string[] }[] = [{ value, path: prefix ? [prefix] : [] }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { value: current, path } = item;
    if (typeof current === 'string') {
      const message = problemOf(current);
      if (message) return { field: path.join('.') || '(body)', message };
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (const [key] of entries) {
        const message = problemOf(key);
        if (message) return { field: [...path, key].join('.'), message };
      }
      // Reversed onto the stack, so the first bad field in document order is the one named.
      for (const [key, child] of entries.reverse()) pending.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}
