import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mixedVariantValues, variantAnswerTypes, variantsWithoutValue } from './variant-values';

describe('variantAnswerTypes (what OFREP answers)', () => {
  it('is the value’s JSON type, or without a value the key as text (true/false for on and off)', () => {
    expect(
      variantAnswerTypes([
        { key: 'a', value: 'x' },
        { key: 'b', value: 2 },
        { key: 'c', value: false },
        { key: 'd', value: { x: 1 } },
        { key: 'e', value: [1] },
        { key: 'f', value: null },
        { key: 'g' },
      ]),
    ).toEqual(['text', 'number', 'true/false', 'object', 'list', 'text', 'text']);
    expect(variantAnswerTypes([{ key: 'off' }, { key: 'on', value: true }])).toEqual([
      'true/false',
      'true/false',
    ]);
  });
});

describe('mixedVariantValues', () => {
  it('names every variant when an object is given to some only', () => {
    const mixed = mixedVariantValues([
      { key: 'on' },
      { key: 'off' },
      { key: 'blue', value: { colour: '#00f' } },
    ]);
    expect(mixed.map(({ variant, type, hasValue }) => [variant.key, type, hasValue])).toEqual([
      ['on', 'text', false],
      ['off', 'text', false],
      ['blue', 'object', true],
    ]);
  });

  it('finds on/off with an object for on mixed, and text for some variants and keys for the rest not', () => {
    expect(mixedVariantValues([{ key: 'on', value: { a: 1 } }, { key: 'off' }])).toHaveLength(2);
    expect(mixedVariantValues([{ key: 'a', value: 'x' }, { key: 'b' }])).toEqual([]);
  });

  it('finds nothing when every variant has a value of one type, or none has one', () => {
    const list = <T>(value: fc.Arbitrary<T>) => fc.array(value, { minLength: 2, maxLength: 6 });
    const sameType = fc.oneof(
      list(fc.string()),
      list(fc.double({ noNaN: true, noDefaultInfinity: true })),
      list(fc.boolean()),
      list(fc.dictionary(fc.string(), fc.integer())),
      list(fc.array(fc.integer())),
    );
    fc.assert(
      fc.property(sameType, (values) => {
        const variants = values.map((value, i) => ({ key: `v${i}`, value }));
        expect(mixedVariantValues(variants)).toEqual([]);
        expect(mixedVariantValues(variants.map(({ key }) => ({ key })))).toEqual([]);
        expect(mixedVariantValues([...variants, { key: 'extra', value: null }]).length).toBe(
          typeof values[0] === 'string' ? 0 : variants.length + 1,
        );
      }),
    );
  });
});

describe('variantsWithoutValue', () => {
  it('names the variants without a value when others have text values', () => {
    expect(variantsWithoutValue([{ key: 'a', value: 'x' }, { key: 'b' }, { key: 'c', value: 'z' }])).toEqual([
      { key: 'b' },
    ]);
  });

  it('is empty when all or none have a value, or when the types already differ', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 2, maxLength: 6 }), (values) => {
        const variants = values.map((value, i) => ({ key: `v${i}`, value }));
        expect(variantsWithoutValue(variants)).toEqual([]);
        expect(variantsWithoutValue(variants.map(({ key }) => ({ key })))).toEqual([]);
        const [first, ...rest] = variants;
        expect(variantsWithoutValue([{ key: first!.key }, ...rest])).toEqual(
          rest.length > 0 ? [{ key: first!.key }] : [],
        );
      }),
    );
    expect(variantsWithoutValue([{ key: 'on' }, { key: 'off' }, { key: 'blue', value: { c: 1 } }])).toEqual(
      [],
    );
  });
});
