import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { loadSqliteDriver } from '../../../apps/api/src/db/sqlite-driver.ts';

// The local outbox of the server under test: without SMTP every e-mail is a row of
// outbox_messages in its SQLite database (support/serve.ts puts it in CCP_E2E_TMP/data). Read-only.

const databaseFile = () => {
  const tmp = process.env.CCP_E2E_TMP;
  if (!tmp) throw new Error('CCP_E2E_TMP is not set (playwright.config.ts sets it).');
  return path.join(tmp, 'data', 'ccp.sqlite');
};

type TRow = { body: string; subject: string | null };

/** The newest e-mail to `to` (waits up to 5 s for it): its subject and text. */
export const lastMailTo = async (to: string): Promise<{ subject: string; text: string }> => {
  const db = new (loadSqliteDriver())(databaseFile(), { readonly: true, fileMustExist: true });
  try {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const row = db
        .prepare(
          "SELECT body, subject FROM outbox_messages WHERE channel = 'email' AND recipient = ? ORDER BY created_at DESC LIMIT 1",
        )
        .get(to) as TRow | undefined;
      if (row) {
        const body = JSON.parse(row.body) as { text: string };
        return { subject: row.subject ?? '', text: body.text };
      }
      await sleep(100);
    }
  } finally {
    db.close();
  }
  throw new Error(`No e-mail to ${to} in the outbox.`);
};

/** The link of the newest e-mail to `to` (a path with its #token fragment). */
export const linkInLastMailTo = async (to: string): Promise<string> => {
  const { text } = await lastMailTo(to);
  const url = /https?:\/\/\S+#token=[\w-]+/.exec(text)?.[0];
  if (!url) throw new Error(`No link in the e-mail to ${to}: ${text}`);
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.hash}`;
};
