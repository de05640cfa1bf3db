import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

// Secrets at rest (channel connections' tokens and keys): AES-256-GCM under the key of
// CCP_SECRETS_KEY (32 bytes, base64 or hex). Each value gets a fresh 12-byte IV; the 16-byte
// tag authenticates it, and the record it belongs to is bound in as additional data, so a
// ciphertext copied onto another row does not decrypt.

const VERSION = 'v1';
const IV_BYTES = 12;
const KEY_BYTES = 32;

export type SecretBox = {
  seal: (value: Record<string, string>, boundTo: string) => string;
  open: (sealed: string, boundTo: string) => Record<string, string>;
  /** HMAC-SHA256 (base64url) under a key derived from the master key for `purpose` (HKDF). */
  mac: (purpose: string, text: string) => string;
};

/** The 32-byte key of CCP_SECRETS_KEY (base64, base64url or 64 hex digits), else an error naming it. */
export const parseSecretsKey = (value: string): Buffer => {
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error(
      'CCP_SECRETS_KEY must be 32 random bytes in base64 or hex (e.g. `openssl rand -base64 32`)',
    );
  }
  return key;
};

export const createSecretBox = (key: Buffer): SecretBox => ({
  mac: (purpose, text) =>
    createHmac('sha256', Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), purpose, 32)))
      .update(text)
      .digest('base64url'),
  seal: (value, boundTo) => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url'));
    return [VERSION, ...parts].join(':');
  },
  open: (sealed, boundTo) => {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined) {
      throw new Error('not a sealed secret');
    }
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
    return JSON.parse(text) as Record<string, string>;
  },
});
