import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/*
 * Secrets at rest (a single sign-on client secret, later integration credentials): AES-256-GCM,
 * authenticated encryption, with a fresh random IV for every value. A stored value is text:
 *
 *   v1:<iv>:<tag>:<ciphertext>      (each part base64url)
 *
 * The version names the algorithm and key scheme, so a later one can be added next to it. The key is
 * SECRETS_KEY (config.ts); unset, one is generated once into `{DATA_DIR}/secrets.key` (mode 0600)
 * and reused (docs/adr/0014-single-sign-on.md). During a key rotation SECRETS_KEY_PREVIOUS still
 * decrypts what the old key encrypted, until every stored value is encrypted again with the new one
 * (docs/adr/0017-integrations-and-outgoing-requests.md).
 */

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Binds a value to this use: a ciphertext moved into another kind of field does not decrypt there. */
const DEFAULT_CONTEXT = 'vexil';

/** A stored secret that cannot be read: tampered with, cut, or encrypted with another key. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export type SecretBox = {
  /** Encrypts `plaintext`; `context` (e.g. `sso.client_secret`) must be the same to decrypt it. */
  encrypt(plaintext: string, context?: string): string;
  /** Decrypts a value of {@link SecretBox.encrypt}; throws {@link SecretBoxError} when it cannot. */
  decrypt(stored: string, context?: string): string;
  /**
   * The value encrypted again with the current key when it was stored with a previous one, else null
   * (already current, or readable by no key: left for its owner to replace).
   */
  reencrypt(stored: string, context?: string): string | null;
  /**
   * A 32-byte key for another use of the same secret (`purpose`, e.g. signing OAuth states), derived
   * from the current key with HKDF-SHA256, so that a rotation of SECRETS_KEY changes it too.
   */
  derivedKey(purpose: string): Buffer;
};

type Cipher = Pick<SecretBox, 'encrypt' | 'decrypt'>;

/**
 * A secret box with this 32-byte key; `previousKeys` only decrypt (a rotation under way): what they
 * decrypt, {@link SecretBox.reencrypt} encrypts again with `key`.
 */
export function secretBoxWithKey(key: Buffer, previousKeys: Buffer[] = []): SecretBox {
  const current = cipherWithKey(key);
  const previous = previousKeys.filter((other) => !other.equals(key)).map(cipherWithKey);
  return {
    encrypt: current.encrypt,
    decrypt(stored, context) {
      try {
        return current.decrypt(stored, context);
      } catch (error) {
        for (const cipher of previous) {
          try {
            return cipher.decrypt(stored, context);
          } catch {
            // The next one, else the current key's error.
          }
        }
        throw error;
      }
    },
    reencrypt(stored, context) {
      try {
        current.decrypt(stored, context);
        return null;
      } catch {
        for (const cipher of previous) {
          try {
            return current.encrypt(cipher.decrypt(stored, context), context);
          } catch {
            // Not this one.
          }
        }
        return null;
      }
    },
    derivedKey(purpose) {
      return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `vexil:${purpose}`, KEY_BYTES));
    },
  };
}

function cipherWithKey(key: Buffer): Cipher {
  if (key.length !== KEY_BYTES) throw new Error(`The secrets key must be ${KEY_BYTES} bytes`);
  return {
    encrypt(plaintext, context = DEFAULT_CONTEXT) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(`${VERSION}:${context}`, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, tag, ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join(':');
    },
    decrypt(stored, context = DEFAULT_CONTEXT) {
      const parts = stored.split(':');
      if (parts.length !== 4 || parts[0] !== VERSION)
        throw new SecretBoxError('The stored secret is not in a known format.');
      const [, iv, tag, ciphertext] = parts.map((part) => Buffer.from(part, 'base64url'));
      if (iv!.length !== IV_BYTES || tag!.length !== TAG_BYTES)
        throw new SecretBoxError('The stored secret is not in a known format.');
      try {
        const decipher = createDecipheriv(ALGORITHM, key, iv!, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(`${VERSION}:${context}`, 'utf8'));
        decipher.setAuthTag(tag!);
        return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError(
          'The stored secret could not be decrypted: it was changed, or SECRETS_KEY is not the key it was stored with.',
        );
      }
    },
  };
}

/**
 * The key in `file`, or a new random one written there (mode 0600) when the file does not exist yet.
 * Two processes starting together agree: the file is created exclusively, and the loser reads it.
 */
export function readOrCreateKeyFile(file: string): Buffer {
  const read = () => {
    const text = readFileSync(file, 'utf8').trim();
    const key = Buffer.from(text, 'base64');
    if (key.length !== KEY_BYTES)
      throw new Error(
        `${file} does not hold a ${KEY_BYTES}-byte key in base64; set SECRETS_KEY or remove it.`,
      );
    return key;
  };
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return read();
}

/**
 * The application's secret box: with `key` (SECRETS_KEY) when given, else with the key of `keyFile`,
 * read (or generated) on first use so that a server that stores no secret never writes the file.
 */
export function createSecretBox(options: {
  key: Buffer | undefined;
  keyFile: string;
  /** SECRETS_KEY_PREVIOUS, during a rotation. */
  previousKey?: Buffer | undefined;
}): SecretBox {
  const previous = options.previousKey ? [options.previousKey] : [];
  let box: SecretBox | null = options.key ? secretBoxWithKey(options.key, previous) : null;
  const resolve = () => (box ??= secretBoxWithKey(readOrCreateKeyFile(options.keyFile), previous));
  return {
    encrypt: (plaintext, context) => resolve().encrypt(plaintext, context),
    decrypt: (stored, context) => resolve().decrypt(stored, context),
    reencrypt: (stored, context) => resolve().reencrypt(stored, context),
    derivedKey: (purpose) => resolve().derivedKey(purpose),
  };
}
