import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bucketOf, bucketPrefix, createEvaluator } from '@vexil/core';
import cases from '../../../../packages/core/src/evaluate/cases.json';
import { hash } from 'node:crypto';
import { createServerKeyDigest, serverEvaluator } from './sha1';

describe("the server's SHA-1 in the engine", () => {
  it('gives every user the same bucket as the pure JavaScript SHA-1, whatever the text', async () => {
    const server = createEvaluator({ digest: await createServerKeyDigest() });
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'binary' }),
        (salt, key, user) => {
          const pure = [bucketOf(salt, key, user), bucketPrefix(salt, key, user)];
          expect([server.bucketOf(salt, key, user), server.bucketPrefix(salt, key, user)]).toEqual(pure);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('answers the bucketing test vectors of docs/sdk-protocol.md §10', async () => {
    const server = await serverEvaluator();
    for (const vector of cases.bucketing) {
      expect(server.bucketOf(vector.salt, vector.feature, vector.userId)).toBe(vector.bucket);
      if ('prefix' in vector)
        expect(server.bucketPrefix(vector.salt, vector.feature, vector.userId)).toBe(vector.prefix);
    }
  });

  it('digests `salt:key:user` exactly as node:crypto does, lone surrogates and long texts included', async () => {
    const serverDigest = await createServerKeyDigest();
    const expectSame = (salt: string, key: string, user: string) =>
      expect(Buffer.from(serverDigest(salt, key, user)).toString('hex')).toBe(
        hash('sha1', `${salt}:${key}:${user}`, 'hex'),
      );
    const texts = ['', 'a', '\ud800', 'x\udc00y', '\ud83d\ude00', 'é', '\u0000', '\u007f', '\u0080'];
    for (const text of texts) {
      expectSame('1', 'checkout', text);
      expectSame(text, 'checkout', 'user-1');
      expectSame('1', text, 'user-1');
    }
    // Around the length up to which the parts are copied into a buffer, and far past it.
    for (const length of [1, 1010, 1011, 1012, 1013, 1024, 1025, 10_000]) {
      expectSame('1', 'checkout', 'u'.repeat(length));
      expectSame('s'.repeat(length), 'checkout', 'user-1');
      expectSame('1', 'k'.repeat(length), 'user-1');
    }
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.string({ maxLength: 40 }),
        fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ maxLength: 1100 })),
        (salt, key, user) => {
          expectSame(salt, key, user);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
