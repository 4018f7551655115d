import type { Rule } from '../schemas/targeting';
import { canonicalJson } from './same-json';

/** How one rule of the older list relates to the newer list; indexes are positions in each list. */
export type RuleMatch =
  | { kind: 'kept'; before: number; after: number }
  | { kind: 'moved'; before: number; after: number }
  | { kind: 'changed'; before: number; after: number }
  | { kind: 'removed'; before: number }
  | { kind: 'added'; after: number };

/**
 * Pairs of equal items that keep their order, as many as there can be (a longest common
 * subsequence); among as many, the one with the most items at the same index, so that a swap reads
 * as the two rules that moved rather than as one rule crossing the other.
 */
function commonInOrder(a: readonly string[], b: readonly string[]): [number, number][] {
  const cols = b.length + 1;
  // A pair is worth more than any number of same-index bonuses: at most 100 rules a control.
  const pairWorth = a.length + b.length + 1;
  const best = new Array<number>((a.length + 1) * cols).fill(0);
  const at = (i: number, j: number) => best[i * cols + j]!;
  const withPair = (i: number, j: number) => at(i + 1, j + 1) + pairWorth + (i === j ? 1 : 0);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const skip = Math.max(at(i + 1, j), at(i, j + 1));
      best[i * cols + j] = a[i] === b[j] ? Math.max(skip, withPair(i, j)) : skip;
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j] && at(i, j) === withPair(i, j)) pairs.push([i++, j++]);
    else if (at(i, j) === at(i + 1, j)) i++;
    else j++;
  }
  return pairs;
}

/**
 * How the rules of `before` became those of `after`, as a person would tell it: rules that stayed
 * in order are `kept` (numbers may shift as others come and go); an unchanged rule that changed
 * places among the others is `moved`; a rule edited where it stands is `changed` (paired with the
 * rule of the same audience between the same kept rules, else with the next one there); the rest
 * are `removed` or `added`.
 */
export function matchRules(before: readonly Rule[], after: readonly Rule[]): RuleMatch[] {
  const beforeKeys = before.map(canonicalJson);
  const afterKeys = after.map(canonicalJson);
  const matches: RuleMatch[] = [];
  const anchors = commonInOrder(beforeKeys, afterKeys);
  const freeBefore = new Set(before.keys());
  const freeAfter = new Set(after.keys());
  const take = (match: RuleMatch & { before: number; after: number }) => {
    matches.push(match);
    freeBefore.delete(match.before);
    freeAfter.delete(match.after);
  };
  for (const [i, j] of anchors) take({ kind: 'kept', before: i, after: j });
  for (const j of [...freeAfter]) {
    const i = [...freeBefore].find((index) => beforeKeys[index] === afterKeys[j]);
    if (i !== undefined) take({ kind: 'moved', before: i, after: j });
  }
  // Between two kept rules, what is left was edited in place, removed or added.
  const gapOf = (index: number, side: 0 | 1) => anchors.filter((anchor) => anchor[side] < index).length;
  const audienceOf = (rule: Rule) => canonicalJson(rule.audience);
  for (let gap = 0; gap <= anchors.length; gap++) {
    const olds = [...freeBefore].filter((i) => gapOf(i, 0) === gap);
    const news = [...freeAfter].filter((j) => gapOf(j, 1) === gap);
    for (const j of news) {
      const i = olds.find(
        (index) => freeBefore.has(index) && audienceOf(before[index]!) === audienceOf(after[j]!),
      );
      if (i !== undefined) take({ kind: 'changed', before: i, after: j });
    }
    const leftOld = olds.filter((i) => freeBefore.has(i));
    const leftNew = news.filter((j) => freeAfter.has(j));
    for (let k = 0; k < Math.min(leftOld.length, leftNew.length); k++) {
      take({ kind: 'changed', before: leftOld[k]!, after: leftNew[k]! });
    }
  }
  for (const i of freeBefore) matches.push({ kind: 'removed', before: i });
  for (const j of freeAfter) matches.push({ kind: 'added', after: j });
  return matches;
}
