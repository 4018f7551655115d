import { describe, expect, it } from 'vitest';
import {
  audienceText,
  conditionText,
  conditionValueLabel,
  operatorText,
  servesText,
  splitsLabel,
} from './describe-conditions';

const names = { targets: { country: 'Country', beta: 'Beta' }, targetTypes: { beta: 'segment' } } as const;
const variantName = (key: string) => ({ on: 'On', off: 'Off' })[key] ?? key;

describe('the words of targeting', () => {
  it('reads operators as a sentence does, and a segment’s as membership', () => {
    expect(operatorText('greaterThanOrEqual', 'number')).toBe('is at least');
    expect(operatorText('in', 'string')).toBe('is one of');
    expect(operatorText('in', 'segment')).toBe('is in');
    expect(operatorText('notIn', 'segment')).toBe('is not in');
  });

  it('quotes a value only where it would be ambiguous', () => {
    expect(conditionValueLabel('NZ')).toBe('NZ');
    expect(conditionValueLabel('')).toBe('""');
    expect(conditionValueLabel(' padded')).toBe('" padded"');
    expect(conditionValueLabel('a, b')).toBe('"a, b"');
    expect(conditionValueLabel(42)).toBe('42');
    expect(conditionValueLabel(true)).toBe('true');
  });

  it('reads a condition with the target’s name, a built-in attribute’s name, or its key', () => {
    expect(conditionText({ target: 'country', operator: 'in', values: ['NZ', 'AU'] }, names)).toBe(
      'Country is one of NZ, AU',
    );
    expect(conditionText({ target: 'featureflow.hourofday', operator: 'lessThan', values: [9] })).toBe(
      'Hour of the day is less than 9',
    );
    expect(conditionText({ target: 'plan', operator: 'equals', values: ['gold'] })).toBe('plan equals gold');
  });

  it('reads a segment condition as the user being in the segments', () => {
    expect(conditionText({ target: 'beta', operator: 'in', values: ['beta-testers'] }, names)).toBe(
      'User is in beta-testers',
    );
  });

  it('joins conditions with and, and reads no condition as everyone', () => {
    const audience = {
      conditions: [
        { target: 'country', operator: 'equals' as const, values: ['NZ'] },
        { target: 'beta', operator: 'notIn' as const, values: ['staff'] },
      ],
    };
    expect(audienceText(audience, names)).toBe('Country equals NZ and User is not in staff');
    expect(audienceText({ conditions: [] })).toBe('everyone');
  });

  it('says what a rule serves: one name when one variant gets everyone, else the shares', () => {
    const half = [
      { variantKey: 'on', split: 50 },
      { variantKey: 'off', split: 50 },
    ];
    const all = [
      { variantKey: 'on', split: 100 },
      { variantKey: 'off', split: 0 },
    ];
    expect(servesText(half, variantName)).toBe('50% On, 50% Off');
    expect(servesText(all, variantName)).toBe('On');
    expect(splitsLabel(all, variantName)).toBe('100% On, 0% Off');
  });
});
