import { IMPORT_ERROR_REPORT_RETENTION_DAYS, MESSAGES } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import type { JobsTable } from '../db/types.ts';
import { localizeMessage } from '../i18n/messages.ts';
import { t } from '../i18n/texts.ts';
import { sendMail } from '../lib/mail.ts';
import { importJobUrl, parseImportOptions } from './options.ts';

// Spec §4: "Bulk import runs in the background; the user is e-mailed when finished."

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The summary mail of a finished import: its counts, or why it failed, in the language of the
 * request that started it (`server.mail.import.*`).
 */
export const importSummaryMail = (job: JobsTable, firstName: string) => {
  const options = parseImportOptions(job.options);
  const lang = options.language ?? 'en';
  const file = options.file_name;
  const failed = job.status === 'failed';
  const subject = localizeMessage(
    failed
      ? MESSAGES.importMailFailed
      : options.dry_run
        ? MESSAGES.importMailDryRun
        : MESSAGES.importMailCompleted,
    lang,
  );
  const counts = [
    t(lang, 'server.mail.import.rows', { count: job.total_rows }),
    t(lang, 'server.mail.import.created', { count: job.created }),
    t(lang, 'server.mail.import.updated', { count: job.updated }),
    t(lang, 'server.mail.import.skipped', { count: job.skipped }),
    t(lang, 'server.mail.import.failed', { count: job.failed }),
  ];
  const lines = [
    t(lang, 'server.mail.import.greeting', { name: firstName }),
    '',
    failed
      ? t(lang, 'server.mail.import.stopped', {
          file,
          reason: localizeMessage(job.error_summary ?? '', lang),
        })
      : options.dry_run
        ? t(lang, 'server.mail.import.dryRun', { file })
        : t(lang, 'server.mail.import.complete', { file }),
    ...(options.list ? [t(lang, 'server.mail.import.list', { name: options.list.name })] : []),
    '',
    ...counts,
    '',
    ...(job.failed > 0
      ? [
          t(lang, 'server.mail.import.errorReport', {
            days: IMPORT_ERROR_REPORT_RETENTION_DAYS,
          }),
          `${importJobUrl(job.uuid)}/errors`,
          '',
        ]
      : []),
    t(lang, 'server.mail.import.link', { url: importJobUrl(job.uuid) }),
  ];
  const text = `${lines.join('\n')}\n`;
  const html = `<p>${lines.map(escapeHtml).join('<br>\n')}</p>\n`;
  return { subject: `${subject}: ${options.file_name}`, text, html };
};

/** E-mails the requester (if the account still exists) the outcome of the import. */
export const sendImportSummary = async (app: FastifyInstance, job: JobsTable): Promise<void> => {
  if (!job.user_uuid) return;
  const user = await app.db
    .selectFrom('users')
    .select(['email', 'first_name'])
    .where('uuid', '=', job.user_uuid)
    .executeTakeFirst();
  if (!user) return;
  const mail = importSummaryMail(job, user.first_name);
  await sendMail(app, { to: user.email, companyUuid: job.company_uuid, ...mail });
};
