/**
 * The split editor's arithmetic when the user sets several shares in turn (docs/product.md §5 "Splits
 * clamp to 0-100 and rebalance to sum 100"): what the user typed is kept, and only the shares they
 * have not set take up the difference.
 */
import type { VariantSplit } from './schemas/targeting';

/** A share as the editor keeps it: a whole percentage in 0..100 (anything else typed is clamped). */
export function clampSplit(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/**
 * Shares `total` among `indexes` in proportion to `weights` (evenly when they are all 0), in whole
 * numbers by largest remainder, ties to the earlier index.
 */
export function share(
  total: number,
  indexes: readonly number[],
  weights: readonly number[],
): Map<number, number> {
  const weight = indexes.reduce((sum, i) => sum + weights[i]!, 0);
  const parts = indexes.map((i) => {
    const exact = weight > 0 ? (total * weights[i]!) / weight : total / indexes.length;
    return { i, whole: Math.floor(exact), fraction: exact - Math.floor(exact) };
  });
  let leftover = total - parts.reduce((sum, part) => sum + part.whole, 0);
  for (const part of [...parts].sort((a, b) => b.fraction - a.fraction || a.i - b.i)) {
    if (leftover <= 0) break;
    part.whole += 1;
    leftover -= 1;
  }
  return new Map(parts.map((part) => [part.i, part.whole]));
}

/**
 * Sets the share of `splits[index]` to `value`, clamped to a whole 0..100, and makes the shares add
 * up to 100 again. `userSet` names the variants whose share the user set earlier in this edit, the
 * earliest first: those keep their share, and the variants the user has not set take up the
 * difference, in proportion to their current shares (evenly when they are all 0). When that is not
 * possible (every other share was set, or those set leave less than nothing), the shares set longest
 * ago give way first. With a single variant its share is 100.
 */
export function setSplit(
  splits: readonly VariantSplit[],
  index: number,
  value: number,
  userSet: readonly string[] = [],
): VariantSplit[] {
  if (splits.length === 0) return [];
  if (splits.length === 1) return [{ variantKey: splits[0]!.variantKey, split: 100 }];
  const edited = clampSplit(value);
  const editedKey = splits[index]?.variantKey;
  const current = splits.map((split) => clampSplit(split.split));
  const others = splits.map((_, i) => i).filter((i) => i !== index);
  // The other variants the user set, oldest first; each keeps its share while the rest can make up 100.
  const kept = userSet
    .filter((key, at) => key !== editedKey && userSet.indexOf(key) === at)
    .map((key) => splits.findIndex((split, i) => i !== index && split.variantKey === key))
    .filter((i) => i !== -1);
  const room = () => 100 - edited - kept.reduce((sum, i) => sum + current[i]!, 0);
  while (kept.length > 0 && (kept.length === others.length || room() < 0)) kept.shift();
  const free = others.filter((i) => !kept.includes(i));
  const shares = share(room(), free, current);
  return splits.map((split, i) => ({
    variantKey: split.variantKey,
    split: i === index ? edited : (shares.get(i) ?? current[i]!),
  }));
}
