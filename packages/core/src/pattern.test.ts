import { describe, expect, it } from 'vitest';
import { compilePattern, isValidPattern } from './pattern';

describe('compilePattern', () => {
  it('searches the text, as the Node and Go SDKs do', () => {
    expect(compilePattern('@example\\.com$')!.test('ada@example.com')).toBe(true);
    expect(compilePattern('^beta')!.test('a-beta')).toBe(false);
    expect(compilePattern('b')!.test('abc')).toBe(true);
  });

  it('rejects invalid patterns and RE2-unsupported look-arounds', () => {
    expect(isValidPattern('(')).toBe(false);
    expect(isValidPattern('a(?=b)')).toBe(false);
    expect(isValidPattern('(a)\\1')).toBe(false);
    expect(isValidPattern('^[a-z]+\\d{2,}$')).toBe(true);
  });

  it('runs a catastrophic pattern on a long input in linear time', () => {
    const pattern = compilePattern('^(a+)+$')!;
    const input = `${'a'.repeat(10_000)}!`;
    expect(pattern.test(input)).toBe(false);
  });
});
