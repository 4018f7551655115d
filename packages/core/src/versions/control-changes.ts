import { describeRules, type Audience, type Rule, type VariantSplit } from '../schemas/targeting';
import type { TargetType } from '../schemas/targets';
import type { ControlSnapshot } from '../schemas/versions';
import { audienceText, servesText, splitsLabel } from './describe-conditions';
import { matchRules } from './match-rules';
import { sameJson } from './same-json';

/**
 * What the project calls the keys a control names: variant key → name, target key → name, target
 * key → type. A key without a name reads as the key.
 */
export type ChangeNames = {
  variants?: Readonly<Record<string, string>>;
  targets?: Readonly<Record<string, string>>;
  targetTypes?: Readonly<Record<string, TargetType>>;
};

type Wording<T> = (value: T) => string;

/**
 * The first wording under which `before` and `after` read differently, so that a sentence never
 * says `X became X`; the last (the most exact) when none does.
 */
function contrast<T>(before: T, after: T, wordings: readonly Wording<T>[]): [string, string] {
  let pair: [string, string] = ['', ''];
  for (const word of wordings) {
    pair = [word(before), word(after)];
    if (pair[0] !== pair[1]) break;
  }
  return pair;
}

/** Reads rules and their parts, plainly first, then exactly (keys, typed values). */
function wordingsFor(names: ChangeNames) {
  const variantName = (key: string) => names.variants?.[key] ?? key;
  const exactCondition = (audience: Audience | null) =>
    audience === null
      ? 'no audience'
      : audience.conditions
          .map((c) => `${c.target} ${c.operator} ${c.values.map((v) => JSON.stringify(v)).join(', ')}`)
          .join(' and ') || 'everyone';
  const audience: Wording<Audience | null>[] = [(value) => audienceText(value, names), exactCondition];
  const serves: Wording<readonly VariantSplit[]>[] = [
    (splits) => servesText(splits, variantName),
    (splits) => splitsLabel(splits, variantName),
    (splits) => splitsLabel(splits, (key) => key),
  ];
  const rule = (value: Rule) =>
    `${audienceText(value.audience, names)} → ${servesText(value.variantSplits, variantName)}`;
  return { variantName, audience, serves, rule };
}

type Wordings = ReturnType<typeof wordingsFor>;

/** What changed in one rule that kept its place: its audience, what it serves, its priority. */
function ruleEdits(label: string, before: Rule, after: Rule, words: Wordings): string[] {
  const sentences: string[] = [];
  const audienceChanged = !sameJson(before.audience, after.audience);
  const splitsChanged = !sameJson(before.variantSplits, after.variantSplits);
  const [servedBefore, servedAfter] = contrast(before.variantSplits, after.variantSplits, words.serves);
  if (audienceChanged) {
    const [audienceBefore, audienceAfter] = contrast(before.audience, after.audience, words.audience);
    sentences.push(
      splitsChanged
        ? `${label}: ${audienceBefore} → ${servedBefore} became ${audienceAfter} → ${servedAfter}`
        : `${label}: ${audienceBefore} became ${audienceAfter}`,
    );
  } else if (splitsChanged) {
    const audience = after.defaultRule ? '' : `${words.audience[0]!(after.audience)} → `;
    sentences.push(`${label}: ${audience}${servedBefore} became ${servedAfter}`);
  }
  if (!sameJson(before.priority, after.priority)) {
    sentences.push(`${label}: priority ${before.priority ?? 'none'} became ${after.priority ?? 'none'}`);
  }
  return sentences;
}

/**
 * The targeted rules' changes: removals first (numbered as they were, in the order matchRules gives
 * them, which is theirs), then additions, moves and edits in the new list's order.
 */
function targetedChanges(before: readonly Rule[], after: readonly Rule[], words: Wordings): string[] {
  const removed: string[] = [];
  const inOrder: { at: number; sentences: string[] }[] = [];
  for (const match of matchRules(before, after)) {
    if (match.kind === 'removed') {
      removed.push(`Rule ${match.before + 1} removed: ${words.rule(before[match.before]!)}`);
    } else if (match.kind === 'added') {
      inOrder.push({
        at: match.after,
        sentences: [`Rule ${match.after + 1} added: ${words.rule(after[match.after]!)}`],
      });
    } else if (match.kind === 'moved' && match.before !== match.after) {
      // A rule the others moved around but that kept its number has nothing to tell.
      const text = `Rule ${match.before + 1} moved to ${match.after + 1}: ${words.rule(after[match.after]!)}`;
      inOrder.push({ at: match.after, sentences: [text] });
    } else if (match.kind === 'changed') {
      const label =
        match.before === match.after
          ? `Rule ${match.after + 1}`
          : `Rule ${match.before + 1}, now ${match.after + 1}`;
      inOrder.push({
        at: match.after,
        sentences: ruleEdits(label, before[match.before]!, after[match.after]!, words),
      });
    }
  }
  return [...removed, ...inOrder.sort((a, b) => a.at - b.at).flatMap((entry) => entry.sentences)];
}

function ruleChanges(before: readonly Rule[], after: readonly Rule[], words: Wordings): string[] {
  if (sameJson(before, after)) return [];
  const defaultBefore = before.filter((rule) => rule.defaultRule);
  const defaultAfter = after.filter((rule) => rule.defaultRule);
  const sentences = targetedChanges(
    before.filter((rule) => !rule.defaultRule),
    after.filter((rule) => !rule.defaultRule),
    words,
  );
  if (defaultBefore.length === 1 && defaultAfter.length === 1) {
    sentences.push(...ruleEdits('Default rule', defaultBefore[0]!, defaultAfter[0]!, words));
  } else if (!sameJson(defaultBefore, defaultAfter)) {
    const count = (rules: readonly Rule[]) => `${rules.length} default rule${rules.length === 1 ? '' : 's'}`;
    sentences.push(`Default rule: ${count(defaultBefore)} became ${count(defaultAfter)}`);
  }
  // The same rules in another order around the default rule: nothing above tells it.
  return sentences.length > 0 ? sentences : ['Rules reordered'];
}

/**
 * What changed in a feature control between two versions, as sentences a person reads in the
 * history (issue #31): `Turned on`, `Off variant: Off became Control`, `Rule 2: Country is one of
 * NZ, AU → 50% On, 50% Off became 80% On, 20% Off`, `Rule 3 added: …`, `Rule 1 removed: …`,
 * `Rule 3 moved to 1: …`, `Default rule: On became 50% On, 50% Off`. `before` null is the first
 * version: one sentence of what it serves (`Created: off, everyone gets Off.`). Empty exactly when
 * the two are equal as JSON (key order and undefined members aside).
 */
export function controlChanges(
  before: ControlSnapshot | null,
  after: ControlSnapshot,
  names: ChangeNames = {},
): string[] {
  const words = wordingsFor(names);
  if (before === null) {
    const serves = after.enabled
      ? describeRules(after, names.variants)
      : `everyone gets ${words.variantName(after.offVariantKey)}.`;
    return [`Created: ${after.enabled ? 'on' : 'off'}, ${serves.charAt(0).toLowerCase()}${serves.slice(1)}`];
  }
  if (sameJson(before, after)) return [];
  const sentences: string[] = [];
  if (before.enabled !== after.enabled) sentences.push(after.enabled ? 'Turned on' : 'Turned off');
  if (before.offVariantKey !== after.offVariantKey) {
    const [from, to] = contrast(before.offVariantKey, after.offVariantKey, [words.variantName, (key) => key]);
    sentences.push(`Off variant: ${from} became ${to}`);
  }
  sentences.push(...ruleChanges(before.rules, after.rules, words));
  // A member these sentences do not know yet (a later kind of setting) still shows as a change.
  if (sentences.length === 0) sentences.push('Changed');
  return sentences;
}
