import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  errorBodySchema,
  idParam,
  normalisedKey,
  optionalUrl,
  pageQuery,
  text,
  toFieldErrors,
} from './common';

describe('text', () => {
  const name = text({ max: 5, required: 'Name is required' });

  it('reports the required message for missing, blank and empty values', () => {
    for (const value of [undefined, '', '   ']) {
      expect(name.safeParse(value).error?.issues.map((issue) => issue.message)).toEqual(['Name is required']);
    }
  });

  it('trims, bounds and refuses NUL', () => {
    expect(name.parse('  abc  ')).toBe('abc');
    expect(name.safeParse('abcdef').error?.issues[0]?.message).toBe('Must be at most 5 characters.');
    expect(name.safeParse('a\u0000b').error?.issues[0]?.message).toBe('Must not contain NUL characters.');
  });

  it('keeps spaces when asked', () => {
    expect(text({ max: 10, trim: false }).parse(' a ')).toBe(' a ');
  });
});

describe('normalisedKey', () => {
  const key = normalisedKey((input) => input.toLowerCase().replace(/[^a-z]/g, ''), 'Key is required');

  it('outputs the normalised key', () => {
    expect(key.parse('AbC1')).toBe('abc');
  });

  it('reports the required message when nothing survives normalisation', () => {
    expect(key.safeParse('123').error?.issues.map((issue) => issue.message)).toEqual(['Key is required']);
  });
});

describe('optionalUrl', () => {
  it('accepts empty or http(s) and defaults to empty', () => {
    expect(optionalUrl.parse(undefined)).toBe('');
    expect(optionalUrl.parse('')).toBe('');
    expect(optionalUrl.parse('http://localhost:3000/x')).toBe('http://localhost:3000/x');
    expect(optionalUrl.safeParse('ftp://example.com').success).toBe(false);
  });
});

describe('idParam', () => {
  it('needs a UUID', () => {
    expect(idParam.safeParse({ id: '3f0b7c1e-2a4d-4e8f-9b6a-1c2d3e4f5a6b' }).success).toBe(true);
    expect(idParam.safeParse({ id: '1' }).success).toBe(false);
  });
});

describe('pageQuery', () => {
  it('coerces query strings and defaults to the first page of 50', () => {
    expect(pageQuery.parse({})).toEqual({ page: 0, pageSize: 50 });
    expect(pageQuery.parse({ page: '1', pageSize: '100' })).toEqual({ page: 1, pageSize: 100 });
    expect(pageQuery.safeParse({ page: '-1' }).success).toBe(false);
    expect(pageQuery.safeParse({ pageSize: '501' }).success).toBe(false);
  });
});

describe('errorBodySchema', () => {
  it('has a title, an optional detail and optional field errors', () => {
    expect(errorBodySchema.safeParse({ title: 'Not found' }).success).toBe(true);
    const body = { title: 'Invalid', detail: 'x', errors: [{ field: 'name', message: 'Name is required' }] };
    expect(errorBodySchema.parse(body)).toEqual(body);
    expect(errorBodySchema.safeParse({ detail: 'no title' }).success).toBe(false);
  });
});

describe('toFieldErrors', () => {
  it('keeps the first message per dotted field', () => {
    const schema = z.object({ a: z.object({ b: z.string().min(2, 'short').regex(/x/, 'no x') }) });
    const result = schema.safeParse({ a: { b: 'y' } });
    expect(toFieldErrors(result.error?.issues ?? [])).toEqual([{ field: 'a.b', message: 'short' }]);
  });
});
