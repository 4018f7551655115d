import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bucketOf, bucketPrefix, usePureSha1, useSha1 } from '@vexil/core';
import cases from '../../../../packages/core/src/evaluate/cases.json';
import { hash } from 'node:crypto';
import { createServerSha1, useServerSha1 } from './sha1';

afterEach(() => usePureSha1());

describe("the server's SHA-1 in the engine", () => {
  it('gives every user the same bucket as the pure JavaScript SHA-1, whatever the text', async () => {
    const serverSha1 = await createServerSha1();
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'binary' }),
        (salt, key, user) => {
          usePureSha1();
          const pure = [bucketOf(salt, key, user), bucketPrefix(salt, key, user)];
          useSha1(serverSha1);
          expect([bucketOf(salt, key, user), bucketPrefix(salt, key, user)]).toEqual(pure);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('answers the bucketing test vectors of docs/sdk-protocol.md §10', async () => {
    await useServerSha1();
    for (const vector of cases.bucketing) {
      expect(bucketOf(vector.salt, vector.feature, vector.userId)).toBe(vector.bucket);
      if ('prefix' in vector)
        expect(bucketPrefix(vector.salt, vector.feature, vector.userId)).toBe(vector.prefix);
    }
  });

  it('digests exactly what node:crypto does, lone surrogates and long texts included', async () => {
    const serverSha1 = await createServerSha1();
    const texts = ['', 'a', '\ud800', 'x\udc00y', '\ud83d\ude00', 'é', '\u0000', 'a'.repeat(10_000)];
    for (const text of texts) {
      expect(Buffer.from(serverSha1(text)).toString('hex')).toBe(hash('sha1', text, 'hex'));
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(Buffer.from(serverSha1(text)).toString('hex')).toBe(hash('sha1', text, 'hex'));
      }),
      { numRuns: 2_000 },
    );
  });
});
