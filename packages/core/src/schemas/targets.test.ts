import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './common';
import { OPERATORS, OPERATORS_BY_TARGET_TYPE, targetForm, targetInput, targetUserSchema } from './targets';

const errors = (result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) =>
  result.error ? toFieldErrors(result.error.issues) : [];

describe('targetInput', () => {
  it('requires a key, a name and a type', () => {
    expect(errors(targetInput.safeParse({}))).toEqual([
      { field: 'key', message: 'Key is required' },
      { field: 'name', message: 'Name is required' },
      { field: 'type', message: 'Type is required' },
    ]);
  });

  it('offers string, number, date and segment targets, nothing else', () => {
    for (const type of ['string', 'number', 'date', 'segment']) {
      expect(targetInput.safeParse({ key: 'k', name: 'n', type }).success).toBe(true);
    }
    expect(targetInput.safeParse({ key: 'k', name: 'n', type: 'boolean' }).success).toBe(false);
  });

  it('keeps attribute names as SDKs send them', () => {
    expect(targetInput.parse({ key: 'featureflow.user.id', name: 'User id', type: 'string' }).key).toBe(
      'featureflow.user.id',
    );
    expect(targetInput.safeParse({ key: 'user id', name: 'n', type: 'string' }).success).toBe(false);
  });
});

describe('targetForm', () => {
  it('defaults the type to string', () => {
    expect(targetForm.parse({ key: 'tier', name: 'Tier' }).type).toBe('string');
  });
});

describe('OPERATORS_BY_TARGET_TYPE', () => {
  it('lists the operators of docs/product.md §5 per type, all among the 13 SDK operators', () => {
    expect(OPERATORS_BY_TARGET_TYPE).toEqual({
      segment: ['in', 'notIn'],
      string: ['contains', 'equals', 'startsWith', 'endsWith', 'matches', 'in', 'notIn'],
      date: ['before', 'after'],
      number: ['equals', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual'],
    });
    expect(OPERATORS).toHaveLength(13);
    expect(new Set(Object.values(OPERATORS_BY_TARGET_TYPE).flat())).toEqual(new Set(OPERATORS));
  });
});

describe('targetUserSchema', () => {
  it('accepts primitive and list attributes', () => {
    const user = { id: 'u1', attributes: { tier: 'gold', age: 30, beta: true, roles: ['a', 'b'] } };
    expect(targetUserSchema.parse(user)).toEqual(user);
  });
});
