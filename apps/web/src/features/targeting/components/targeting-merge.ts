import { mergeParts, type TargetingPart } from '@vexil/core';
import { OPERATOR_LABELS } from './operator-labels';
import type { ServeDraft, TargetingDraft } from './targeting-draft';

/*
 * Targeting saved elsewhere while the form holds an edit (docs/adr/0013-concurrent-edits.md): the parts
 * the edit left alone follow what was saved, the parts both changed are the user's to choose.
 */

/** Two values of a part say the same (the editor's ids do not count). */
export function samePart(a: unknown, b: unknown): boolean {
  const plain = (value: unknown) =>
    JSON.stringify(value, (name, v: unknown) => (name === 'id' ? undefined : v));
  return plain(a) === plain(b);
}

/**
 * The edit `mine`, started from `base`, with what was saved since (`theirs`) in every part it left
 * alone; `conflicts` are the parts both changed differently, which keep the edit's.
 */
export function mergeDrafts(
  base: TargetingDraft,
  mine: TargetingDraft,
  theirs: TargetingDraft,
): { draft: TargetingDraft; conflicts: TargetingPart[] } {
  const { merged, conflicts } = mergeParts(base, mine, theirs, (_part, a, b) => samePart(a, b));
  return { draft: merged, conflicts };
}

/** A part of `draft` taken from `from`. */
export function withPart(draft: TargetingDraft, from: TargetingDraft, part: TargetingPart): TargetingDraft {
  return { ...draft, [part]: from[part] };
}

function serveText(serve: ServeDraft, nameOf: (key: string) => string): string {
  if (!serve.split) return serve.variantKey ? nameOf(serve.variantKey) : 'no variant';
  return serve.splits
    .filter((split) => split.split > 0)
    .map((split) => `${split.split}% ${nameOf(split.variantKey)}`)
    .join(', ');
}

/** A part of a draft in words, to set one side beside the other: "On", "2 rules: country equals AU → On; …". */
export function partText(
  draft: TargetingDraft,
  part: TargetingPart,
  variantNames: Readonly<Record<string, string>>,
): string {
  const nameOf = (key: string) => variantNames[key] ?? key;
  switch (part) {
    case 'enabled':
      return draft.enabled ? 'On' : 'Off';
    case 'offVariantKey':
      return draft.offVariantKey ? nameOf(draft.offVariantKey) : 'none';
    case 'fallback':
      return serveText(draft.fallback, nameOf);
    case 'rules': {
      if (draft.rules.length === 0) return 'No rules';
      const rules = draft.rules.map((rule) => {
        const conditions = rule.conditions
          .map((c) =>
            [c.target || '…', c.operator ? OPERATOR_LABELS[c.operator] : '…', c.values.join(', ')]
              .filter(Boolean)
              .join(' '),
          )
          .join(' and ');
        return `${conditions} → ${serveText(rule.serve, nameOf)}`;
      });
      return `${rules.length} rule${rules.length === 1 ? '' : 's'}: ${rules.join('; ')}`;
    }
  }
}
