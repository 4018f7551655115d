import type { Variant } from '../schemas/features';
import type { FeatureSettingsSnapshot } from '../schemas/versions';
import { conditionValueLabel } from './describe-conditions';
import { sameJson } from './same-json';

/** Longest variant value quoted in a sentence; a longer one is only said to have changed. */
const VALUE_SHOWN_MAX = 40;

/** How many times each item occurs. */
function counts(items: readonly string[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const item of items) result.set(item, (result.get(item) ?? 0) + 1);
  return result;
}

/** Items of `a` that `b` has fewer of, once per missing occurrence, in `a`'s order. */
function missingFrom(a: readonly string[], b: readonly string[]): string[] {
  const left = counts(b);
  return a.filter((item) => {
    const n = left.get(item) ?? 0;
    left.set(item, n - 1);
    return n <= 0;
  });
}

/** `Tags: added beta; removed old`, or `Tags: reordered` when only the order changed. */
export function listChange(label: string, before: readonly string[], after: readonly string[]): string[] {
  if (sameJson(before, after)) return [];
  const added = missingFrom(after, before).map(conditionValueLabel);
  const removed = missingFrom(before, after).map(conditionValueLabel);
  const parts = [
    ...(added.length > 0 ? [`added ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`removed ${removed.join(', ')}`] : []),
  ];
  return [`${label}: ${parts.length > 0 ? parts.join('; ') : 'reordered'}`];
}

function valueText(variant: Variant): string {
  return variant.value === undefined ? 'none' : JSON.stringify(variant.value);
}

/** What changed in one variant that both versions have. */
function variantEdits(before: Variant, after: Variant): string[] {
  const sentences: string[] = [];
  const label = `Variant ${after.key}`;
  if (before.name !== after.name) sentences.push(`${label} renamed: ${before.name} became ${after.name}`);
  if (before.description !== after.description) sentences.push(`${label}: description changed`);
  if (!sameJson(before.value, after.value)) {
    const [from, to] = [valueText(before), valueText(after)];
    sentences.push(
      from.length <= VALUE_SHOWN_MAX && to.length <= VALUE_SHOWN_MAX
        ? `${label}: value ${from} became ${to}`
        : `${label}: value changed`,
    );
  }
  return sentences;
}

function variantChanges(before: readonly Variant[], after: readonly Variant[]): string[] {
  if (sameJson(before, after)) return [];
  const sentences: string[] = [];
  const beforeKeys = before.map((variant) => variant.key);
  const afterKeys = after.map((variant) => variant.key);
  const shown = (variant: Variant) => `${variant.name} (${variant.key})`;
  for (const variant of after) {
    const old = before.find((candidate) => candidate.key === variant.key);
    if (old === undefined) sentences.push(`Variant added: ${shown(variant)}`);
    else sentences.push(...variantEdits(old, variant));
  }
  for (const variant of before) {
    if (!afterKeys.includes(variant.key)) sentences.push(`Variant removed: ${shown(variant)}`);
  }
  const kept = (keys: readonly string[], others: readonly string[]) =>
    keys.filter((key) => others.includes(key));
  if (!sameJson(kept(beforeKeys, afterKeys), kept(afterKeys, beforeKeys))) {
    sentences.push(`Variants reordered: ${after.map((variant) => variant.name).join(', ')}`);
  }
  // Two variants with one key (which the API refuses) can still differ in ways the above misses.
  return sentences.length > 0 ? sentences : ['Variants changed'];
}

/**
 * What changed in a feature's settings between two versions, as sentences a person reads in the
 * history (issue #31): `Name: A became B`, `Description changed`, `Made permanent`, `Variant added:
 * Blue (blue)`, `Variant blue renamed: Blue became Navy`, `Tags: added x; removed y`, `Maintainer:
 * Ann became nobody`… `before` null is the first version: `Created`. Empty exactly when the two are
 * equal as JSON (key order and undefined members aside).
 */
export function featureSettingsChanges(
  before: FeatureSettingsSnapshot | null,
  after: FeatureSettingsSnapshot,
): string[] {
  if (before === null) return ['Created'];
  if (sameJson(before, after)) return [];
  const sentences: string[] = [];
  if (before.name !== after.name) sentences.push(`Name: ${before.name} became ${after.name}`);
  if (before.key !== after.key) sentences.push(`Key: ${before.key} became ${after.key}`);
  if (before.description !== after.description) sentences.push('Description changed');
  if (before.permanent !== after.permanent) {
    sentences.push(after.permanent ? 'Made permanent' : 'No longer permanent');
  }
  sentences.push(...variantChanges(before.variants, after.variants));
  sentences.push(...listChange('Tags', before.tags, after.tags));
  sentences.push(...listChange('Goals', before.goals, after.goals));
  sentences.push(...listChange('Jira issues', before.jiraIssueKeys, after.jiraIssueKeys));
  if (!sameJson(before.maintainer, after.maintainer)) {
    const name = (maintainer: FeatureSettingsSnapshot['maintainer']) => maintainer?.name ?? 'nobody';
    const [from, to] = [name(before.maintainer), name(after.maintainer)];
    sentences.push(
      from !== to
        ? `Maintainer: ${from} became ${to}`
        : `Maintainer: ${from} became another member named ${to}`,
    );
  }
  // A member these sentences do not know yet (a later setting) still shows as a change.
  if (sentences.length === 0) sentences.push('Changed');
  return sentences;
}
