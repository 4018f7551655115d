import type { ConditionDraft } from './targeting-draft';
import { fieldKey } from './targeting-validation';

/** Server errors no longer about what was edited: those of a changed rule, and root ones. */
export function withoutErrorsOf(errors: Map<string, string>, ruleIds: string[], conditionIds: string[]) {
  const next = new Map(errors);
  for (const key of errors.keys()) {
    const about = key.includes(':') ? (key.split(':')[1] ?? '') : key;
    if (ruleIds.includes(about) || conditionIds.includes(about)) next.delete(key);
  }
  return next;
}

/** The keys of the fields of `conditions`, added to `keys`. */
export function withFieldsOf(
  keys: ReadonlySet<string>,
  conditions: readonly ConditionDraft[],
): ReadonlySet<string> {
  const next = new Set(keys);
  for (const { id } of conditions) {
    for (const part of ['target', 'operator', 'values'] as const) next.add(fieldKey.condition(id, part));
  }
  return next;
}

/** What to bring into view once the next render is on screen. */
export type Reveal = { rule: string; field: string } | 'firstError';

/** Scrolls `element` into view below the sticky navigation and above the save bar, unless it is there. */
export function scrollToView(element: HTMLElement): void {
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  // A card taller than the screen shows its top, where its first field is.
  const tall = element.getBoundingClientRect().height > window.innerHeight - 160;
  element.scrollIntoView({ block: tall ? 'start' : 'nearest', behavior: still ? 'auto' : 'smooth' });
}
