import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const newUuid = (): string => randomUUID();

/** An opaque bearer or refresh token: 256 random bits, base64url. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Tokens are stored hashed, so a leaked database does not leak sessions. */
export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');
