// The demo organisation's accounts (apps/api/src/seed/demo.ts, the README's table).

export const DEMO_PASSWORD = 'ChangeMe-2026!';
/** The TOTP secret of every demo account that has 2FA on. */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

export const ACCOUNTS = {
  /** Acme administrator, 2FA on, all terms accepted. */
  creator: 'creator@example.com',
  /** Acme administrator without 2FA yet and one term to accept (the onboarding spec uses it). */
  newCreator: 'new.creator@example.com',
  /** Globex member: a pending term only an administrator may accept. */
  member: 'member@example.com',
  /** Globex administrator: the same pending term, which he may accept. */
  globexAdmin: 'globex.admin@example.com',
  /** Freelance Trainer administrator on the Free plan (6 learners, 4 used), all terms accepted. */
  free: 'free@example.com',
} as const;

export type TAccount = keyof typeof ACCOUNTS;
