import type { FeatureControl, Operator, VariantSplit } from '@vexil/core';

/** What people call a control's traffic status (docs/product.md §4). */
export function trafficLabel(control: Pick<FeatureControl, 'trafficStatus' | 'staleDays'>): string {
  switch (control.trafficStatus) {
    case 'active':
      return 'Active';
    case 'inactive':
      return `Inactive for ${days(control.staleDays)}`;
    case 'never':
      return 'No traffic yet';
  }
}

/** "1 day", "3 days". */
export function days(count: number): string {
  return `${count} ${count === 1 ? 'day' : 'days'}`;
}

/** `greaterThanOrEqual` → "greater than or equal": operators read as words. */
export function operatorLabel(operator: Operator | string): string {
  return operator.replace(/([A-Z])/g, ' $1').toLowerCase();
}

/** A condition value as typed: strings quoted only when they would otherwise be ambiguous. */
export function conditionValueLabel(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  return value === '' || value.trim() !== value || value.includes(',') ? JSON.stringify(value) : value;
}

/** "100% On" / "50% On, 50% Off", with variant names where known. */
export function splitsLabel(splits: readonly VariantSplit[], nameOf: (key: string) => string): string {
  return splits.map((split) => `${split.split}% ${nameOf(split.variantKey)}`).join(', ');
}
