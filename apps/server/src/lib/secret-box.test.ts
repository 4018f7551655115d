import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretBoxError, createSecretBox, readOrCreateKeyFile, secretBoxWithKey } from './secret-box';

const key = randomBytes(32);

describe('secret box', () => {
  it('gives back what it encrypted, in the versioned text format, with a new IV every time', () => {
    const box = secretBoxWithKey(key);
    const secret = 'client-secret-ünïcode-🔑';
    const first = box.encrypt(secret);
    const second = box.encrypt(secret);
    expect(first).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('client-secret');
    expect(box.decrypt(first)).toBe(secret);
    expect(box.decrypt(second)).toBe(secret);
    expect(box.decrypt(box.encrypt(''))).toBe('');
  });

  it('refuses a value changed in any part', () => {
    const box = secretBoxWithKey(key);
    const stored = box.encrypt('s3cret');
    const parts = stored.split(':');
    for (const index of [1, 2, 3]) {
      const bytes = Buffer.from(parts[index]!, 'base64url');
      bytes[0] = bytes[0]! ^ 1;
      const tampered = parts.map((part, i) => (i === index ? bytes.toString('base64url') : part)).join(':');
      expect(() => box.decrypt(tampered)).toThrow(SecretBoxError);
    }
    expect(() => box.decrypt(stored.slice(0, -2))).toThrow(SecretBoxError);
    expect(() => box.decrypt(`v2:${parts.slice(1).join(':')}`)).toThrow(SecretBoxError);
    expect(() => box.decrypt('s3cret')).toThrow(SecretBoxError);
  });

  it('refuses a value encrypted with another key, or for another use', () => {
    const stored = secretBoxWithKey(key).encrypt('s3cret', 'sso.client_secret:org-a');
    expect(() => secretBoxWithKey(randomBytes(32)).decrypt(stored, 'sso.client_secret:org-a')).toThrow(
      /SECRETS_KEY is not the key/,
    );
    expect(() => secretBoxWithKey(key).decrypt(stored, 'sso.client_secret:org-b')).toThrow(SecretBoxError);
    expect(secretBoxWithKey(key).decrypt(stored, 'sso.client_secret:org-a')).toBe('s3cret');
  });

  it('during a rotation decrypts with the previous key too, and encrypts again with the new one', () => {
    const previous = randomBytes(32);
    const stored = secretBoxWithKey(previous).encrypt('s3cret', 'webhook.secret:w1');
    const rotating = secretBoxWithKey(key, [previous]);
    expect(rotating.decrypt(stored, 'webhook.secret:w1')).toBe('s3cret');
    const again = rotating.reencrypt(stored, 'webhook.secret:w1');
    expect(again).not.toBeNull();
    // Once encrypted again, the new key alone reads it, and there is nothing left to do.
    expect(secretBoxWithKey(key).decrypt(again!, 'webhook.secret:w1')).toBe('s3cret');
    expect(rotating.reencrypt(again!, 'webhook.secret:w1')).toBeNull();
    // A value neither key reads is left alone; the new key's error is the one reported.
    const foreign = secretBoxWithKey(randomBytes(32)).encrypt('x');
    expect(rotating.reencrypt(foreign)).toBeNull();
    expect(() => rotating.decrypt(foreign)).toThrow(/SECRETS_KEY is not the key/);
    expect(
      createSecretBox({ key, keyFile: '/nonexistent', previousKey: previous }).decrypt(
        stored,
        'webhook.secret:w1',
      ),
    ).toBe('s3cret');
  });

  it('derives a separate key per purpose, changing with SECRETS_KEY', () => {
    const box = secretBoxWithKey(key);
    expect(box.derivedKey('a')).toHaveLength(32);
    expect(box.derivedKey('a').equals(box.derivedKey('a'))).toBe(true);
    expect(box.derivedKey('a').equals(box.derivedKey('b'))).toBe(false);
    expect(box.derivedKey('a').equals(key)).toBe(false);
    expect(secretBoxWithKey(randomBytes(32)).derivedKey('a').equals(box.derivedKey('a'))).toBe(false);
  });

  it('without SECRETS_KEY, generates a key file once (mode 0600) and reuses it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vexil-secrets-'));
    const file = path.join(dir, 'nested', 'secrets.key');
    const box = createSecretBox({ key: undefined, keyFile: file });
    const stored = box.encrypt('s3cret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    // A later start reads the same key.
    expect(createSecretBox({ key: undefined, keyFile: file }).decrypt(stored)).toBe('s3cret');
    expect(readOrCreateKeyFile(file).equals(readOrCreateKeyFile(file))).toBe(true);
  });

  it('writes no key file while nothing is encrypted, and none at all with SECRETS_KEY', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vexil-secrets-'));
    const file = path.join(dir, 'secrets.key');
    createSecretBox({ key: undefined, keyFile: file });
    const box = createSecretBox({ key, keyFile: file });
    expect(box.decrypt(box.encrypt('x'))).toBe('x');
    expect(() => statSync(file)).toThrow();
  });

  it('refuses a key file that does not hold a 32-byte key', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vexil-secrets-'));
    const file = path.join(dir, 'secrets.key');
    writeFileSync(file, 'too short');
    expect(() => readOrCreateKeyFile(file)).toThrow(/32-byte key/);
  });
});
