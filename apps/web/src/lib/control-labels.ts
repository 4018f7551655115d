import type { FeatureControl, Operator } from '@vexil/core';

// Condition values and splits are worded in core, so the server's history sentences say the same.
export { conditionValueLabel, splitsLabel } from '@vexil/core';

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
