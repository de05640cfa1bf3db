import { decodeJwt } from 'jose';

// Read before verification, only to find which connection (and so which keys and audience) a
// provider's bearer token is for: Teams names the app id, Google Chat the project number.

/** The audience of a bearer token, or null. */
export const audienceOf = (authorization: string | undefined): string | null => {
  const token = authorization?.match(/^Bearer (.+)$/)?.[1];
  if (!token) return null;
  try {
    const { aud } = decodeJwt(token);
    return typeof aud === 'string' ? aud : null;
  } catch {
    return null;
  }
};
