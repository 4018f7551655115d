import { describe, expect, it } from 'vitest';
import { jsonPatchOperationSchema } from '../schemas/versions';
import { applyJsonPatch, jsonPatch } from './json-patch';

/** A deep copy that keeps undefined members and prototypes, to see that nothing at all was changed. */
function copyOf<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyOf) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  for (const [key, member] of Object.entries(value)) copy[key] = copyOf(member);
  return copy as T;
}

const control = {
  enabled: false,
  offVariantKey: 'off',
  rules: [{ defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] }],
};

describe('jsonPatch', () => {
  it('gives the RFC 6902 operations from one version to the next', () => {
    const next = {
      ...control,
      enabled: true,
      rules: [
        {
          defaultRule: true,
          audience: null,
          variantSplits: [
            { variantKey: 'on', split: 50 },
            { variantKey: 'off', split: 50 },
          ],
        },
      ],
    };
    const patch = jsonPatch(control, next);
    expect(patch).toEqual(
      expect.arrayContaining([
        { op: 'replace', path: '/enabled', value: true },
        { op: 'replace', path: '/rules/0/variantSplits/0/split', value: 50 },
        { op: 'add', path: '/rules/0/variantSplits/1', value: { variantKey: 'off', split: 50 } },
      ]),
    );
    expect(patch).toHaveLength(3);
    for (const operation of patch) expect(jsonPatchOperationSchema.parse(operation)).toEqual(operation);
  });

  it('gives nothing between equal documents, whatever their key order or undefined members', () => {
    const reordered = { rules: control.rules, offVariantKey: 'off', enabled: false, priority: undefined };
    expect(jsonPatch(control, reordered)).toEqual([]);
  });

  it('replaces the whole document when it is not an object or array on both sides', () => {
    expect(jsonPatch([1], { a: 1 })).toEqual([{ op: 'replace', path: '', value: { a: 1 } }]);
    expect(jsonPatch('a', 'b')).toEqual([{ op: 'replace', path: '', value: 'b' }]);
    expect(applyJsonPatch<unknown>([1], jsonPatch([1], { a: 1 }))).toEqual({ a: 1 });
  });
});

describe('applyJsonPatch', () => {
  it('returns a new document and leaves the one given, and the patch, as they were', () => {
    const patch = [
      { op: 'add' as const, path: '/rules/0/variantSplits/-', value: { variantKey: 'off', split: 0 } },
    ];
    const before = copyOf(control);
    const result = applyJsonPatch(control, patch);
    expect(result.rules[0]!.variantSplits).toHaveLength(2);
    expect(control).toStrictEqual(before);
    result.rules[0]!.variantSplits[1]!.split = 10;
    expect(patch[0]!.value.split).toBe(0);
  });

  it('refuses an operation on a path the document does not have', () => {
    expect(() => applyJsonPatch(control, [{ op: 'remove', path: '/rules/3' }])).toThrow();
    expect(() => applyJsonPatch(control, [{ op: 'test', path: '/enabled', value: true }])).toThrow();
  });
});
