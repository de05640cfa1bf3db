import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Transporter } from 'nodemailer';

import { isoNow } from './clock.ts';
import { newUuid } from './ids.ts';

// The mail outbox: every e-mail is a row in outbox_messages (kind and channel `email`), its body
// the JSON MailBody. Without an SMTP sender the row is the record (status `stored`), which the
// caller reads at GET /api/v1/users/me/outbox. With SMTP_URL the mail is also sent, and the row
// says `sent`, or `failed` with the SMTP error in last_error.

/** The sender shown on every mail (MAIL_FROM overrides it). */
export const MAIL_FROM = 'CCP <no-reply@ccp.local>';

/** What `outbox_messages.body` holds for an e-mail. */
export type MailBody = { from: string; text: string; html?: string };

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The organisation the mail is about, for the outbox's company scoping. */
  companyUuid?: string | null;
};

/** stored: no SMTP configured, the outbox row is the mail; pending: being sent; sent; failed. */
export type MailStatus = 'stored' | 'pending' | 'sent' | 'failed';

export type MailSettings = {
  /** `smtp://user:pass@host:587` or `smtps://user:pass@host:465` (SMTP_URL). */
  smtpUrl?: string | undefined;
  /** The From header (MAIL_FROM). */
  from?: string | undefined;
};

type Transport = Transporter;
type Mailer = { from: string; transport: Transport | null };

const MAILER = 'ccpMailer';

/** Reads the mail settings once at start; no SMTP connection is opened before the first mail. */
export const mailPlugin = fp(
  async (app: FastifyInstance, settings: MailSettings) => {
    // nodemailer is loaded only by a server that sends mail (start-up time, issue 18).
    const transport = settings.smtpUrl
      ? (await import('nodemailer')).createTransport({
          url: settings.smtpUrl,
          // A dead SMTP server must not hold a job or a request for minutes (nodemailer's defaults).
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        })
      : null;
    const mailer: Mailer = { from: settings.from || MAIL_FROM, transport };
    app.decorate(MAILER, mailer);
    app.addHook('onClose', async () => transport?.close());
  },
  { name: 'ccp-mail' },
);

/** What sendMail needs: the database and clock, and the app's mailer when it has one. */
export type MailApp = Pick<FastifyInstance, 'db' | 'clock'> &
  Partial<Pick<FastifyInstance, 'hasDecorator' | 'getDecorator' | 'log'>>;

const mailerOf = (app: MailApp): Mailer | null =>
  app.hasDecorator?.(MAILER) && app.getDecorator ? app.getDecorator<Mailer>(MAILER) : null;

/** True when mails leave the server (SMTP_URL set); false when they only reach the outbox. */
export const isSmtpConfigured = (app: MailApp): boolean => mailerOf(app)?.transport != null;

/**
 * Records an e-mail in the outbox and, with SMTP configured, sends it and records the outcome
 * (`sent`, or `failed` with the error: an SMTP failure never throws). Answers the row's uuid.
 */
export const sendMail = async (
  app: MailApp,
  { to, subject, text, html, companyUuid = null }: Mail,
): Promise<string> => {
  const uuid = newUuid();
  const mailer = mailerOf(app);
  const from = mailer?.from ?? MAIL_FROM;
  const body: MailBody = html === undefined ? { from, text } : { from, text, html };
  const status: MailStatus = mailer?.transport ? 'pending' : 'stored';
  await app.db
    .insertInto('outbox_messages')
    .values({
      uuid,
      company_uuid: companyUuid,
      delivery_uuid: null,
      kind: 'email',
      channel: 'email',
      recipient: to,
      subject,
      body: JSON.stringify(body),
      status,
      attempts: 0,
      last_error: null,
      created_at: isoNow(app.clock),
      sent_at: null,
    })
    .execute();
  if (!mailer?.transport) return uuid;

  let outcome: { status: MailStatus; last_error: string | null; sent_at: string | null };
  try {
    await mailer.transport.sendMail({ from, to, subject, text, ...(html ? { html } : {}) });
    outcome = { status: 'sent', last_error: null, sent_at: isoNow(app.clock) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    app.log?.warn({ err: error, outbox: uuid }, 'mail not sent');
    outcome = { status: 'failed', last_error: reason.slice(0, 1000), sent_at: null };
  }
  await app.db
    .updateTable('outbox_messages')
    .set({ ...outcome, attempts: 1 })
    .where('uuid', '=', uuid)
    .execute();
  return uuid;
};
