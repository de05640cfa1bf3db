import { IMPORT_ERROR_REPORT_RETENTION_DAYS, MESSAGES } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import type { JobsTable } from '../db/types.ts';
import { sendMail } from '../lib/mail.ts';
import { importJobUrl, parseImportOptions } from './options.ts';

// Spec §4: "Bulk import runs in the background; the user is e-mailed when finished."

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The summary mail of a finished import: its counts, or why it failed. */
export const importSummaryMail = (job: JobsTable, firstName: string) => {
  const options = parseImportOptions(job.options);
  const failed = job.status === 'failed';
  const subject = failed
    ? MESSAGES.importMailFailed
    : options.dry_run
      ? MESSAGES.importMailDryRun
      : MESSAGES.importMailCompleted;
  const counts = [
    `Rows: ${job.total_rows}`,
    `Created: ${job.created}`,
    `Updated: ${job.updated}`,
    `Skipped (unchanged): ${job.skipped}`,
    `Failed: ${job.failed}`,
  ];
  const lines = [
    `Hello ${firstName},`,
    '',
    failed
      ? `The import of "${options.file_name}" stopped: ${job.error_summary ?? ''}`
      : options.dry_run
        ? `The check of "${options.file_name}" is complete. Nothing was written: this is what an import would do.`
        : `The import of "${options.file_name}" is complete.`,
    ...(options.list ? [`Learners list: ${options.list.name}`] : []),
    '',
    ...counts,
    '',
    ...(job.failed > 0
      ? [
          `The rows that could not be imported, with their line and the reasons, are in the error report (kept for ${IMPORT_ERROR_REPORT_RETENTION_DAYS} days):`,
          `${importJobUrl(job.uuid)}/errors`,
          '',
        ]
      : []),
    `Import: ${importJobUrl(job.uuid)}`,
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
