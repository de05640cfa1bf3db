import { ZListOutboxQuerySchema, ZListOutboxResponseSchema } from '@ccp/schemas';
import type { TOutboxMail } from '@ccp/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import type { OutboxMessagesTable } from '../../../db/types.ts';
import type { MailBody } from '../../../lib/mail.ts';
import { offsetOf, pageRequest, paginated } from '../../../lib/pagination.ts';
import { authOf } from '../../../plugins/auth.ts';

// The caller's mailbox as the server sees it: every e-mail sent (or, without SMTP_URL, only
// recorded) to the signed-in user, so a local user can read what would have been e-mailed.

const tags = ['users'];

const parseBody = (text: string): Partial<MailBody> => {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return { text };
  }
};

const serializeMail = (row: OutboxMessagesTable): TOutboxMail => {
  const body = parseBody(row.body);
  return {
    uuid: row.uuid,
    from: typeof body.from === 'string' ? body.from : '',
    to: row.recipient,
    subject: row.subject ?? '',
    text: typeof body.text === 'string' ? body.text : '',
    html: typeof body.html === 'string' ? body.html : null,
    status: row.status,
    error: row.last_error,
    created_at: row.created_at,
    sent_at: row.sent_at,
  };
};

export const outboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/users/me/outbox',
    {
      schema: {
        tags,
        summary: 'E-mails sent to the signed-in user, newest first, paginated',
        description:
          'Every e-mail the server addressed to the caller (import summaries, export links…). Without SMTP_URL they are only kept here (status "stored"); with it, status is "sent" or "failed" with the SMTP error.',
        querystring: ZListOutboxQuerySchema,
        response: { 200: ZListOutboxResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const page = pageRequest(request.query);
      const base = app.db
        .selectFrom('outbox_messages')
        .where('channel', '=', 'email')
        .where('recipient', '=', user.email);
      const [countRow, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('uuid', 'desc')
          .limit(page.perPage)
          .offset(offsetOf(page))
          .execute(),
      ]);
      return paginated(rows.map(serializeMail), Number(countRow.count), page, request.url);
    },
  );
};
