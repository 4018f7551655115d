import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bucketOf, bucketPrefix, usePureSha1 } from '@vexil/core';
import cases from '../../../../packages/core/src/evaluate/cases.json';
import { useNodeSha1 } from './sha1';

afterEach(() => usePureSha1());

describe("node:crypto's SHA-1 in the engine", () => {
  it('gives every user the same bucket as the pure JavaScript SHA-1, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'binary' }),
        (salt, key, user) => {
          usePureSha1();
          const pure = [bucketOf(salt, key, user), bucketPrefix(salt, key, user)];
          useNodeSha1();
          expect([bucketOf(salt, key, user), bucketPrefix(salt, key, user)]).toEqual(pure);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('answers the bucketing test vectors of docs/sdk-protocol.md §10', () => {
    useNodeSha1();
    for (const vector of cases.bucketing) {
      expect(bucketOf(vector.salt, vector.feature, vector.userId)).toBe(vector.bucket);
      if ('prefix' in vector)
        expect(bucketPrefix(vector.salt, vector.feature, vector.userId)).toBe(vector.prefix);
    }
  });
});
