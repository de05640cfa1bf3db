import type { TChannelKey } from '@ccp/schemas';
import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import { preparedQuery } from '../db/prepared.ts';
import type { Clock } from '../lib/clock.ts';
import type { AcceptedMessage, ChannelMessage } from './message.ts';

// channel_messages: each message a provider accepted, by its id there, with the send it belongs
// to. A provider's receipts (WhatsApp's `statuses`: delivered, read, failed) name only that id;
// this finds the lesson (or invitation, reminder) they are about by key, not by a scan of the
// outbox bodies.

type Values = [
  channel: TChannelKey,
  providerMessageId: string,
  companyUuid: string,
  outboxUuid: string,
  deliveryUuid: string | null,
  courseUuid: string,
  learnerUuid: string,
  kind: string,
  template: number,
  at: string,
];

// Prepared once (db/prepared.ts): written with every WhatsApp send, in the scheduler's transaction.
const insertMessage = preparedQuery<Values>(
  10,
  (
    db,
    channel,
    providerMessageId,
    companyUuid,
    outboxUuid,
    deliveryUuid,
    courseUuid,
    learnerUuid,
    kind,
    template,
    at,
  ) =>
    db
      .insertInto('channel_messages')
      .values({
        channel,
        provider_message_id: providerMessageId,
        company_uuid: companyUuid,
        outbox_uuid: outboxUuid,
        delivery_uuid: deliveryUuid,
        course_uuid: courseUuid,
        learner_uuid: learnerUuid,
        kind,
        template: template as unknown as number,
        created_at: at,
      })
      .onConflict((oc) => oc.columns(['channel', 'provider_message_id']).doNothing()),
);

/** The rows keeping the messages of one send (its outbox row `outboxUuid`), compiled. */
export const channelMessageRecords = (
  deps: { db: Db; clock: Clock },
  message: Pick<
    ChannelMessage,
    'channel' | 'companyUuid' | 'deliveryUuid' | 'courseUuid' | 'kind'
  > & {
    recipient: { learnerUuid: string };
  },
  outboxUuid: string,
  accepted: AcceptedMessage[],
): CompiledQuery[] => {
  const at = deps.clock.now().toISOString();
  return accepted
    .filter((item) => item.providerMessageId !== '')
    .map((item) =>
      insertMessage.bind(
        deps.db,
        message.channel,
        item.providerMessageId,
        message.companyUuid,
        outboxUuid,
        message.deliveryUuid,
        message.courseUuid,
        message.recipient.learnerUuid,
        message.kind,
        item.template ? 1 : 0,
        at,
      ),
    );
};

/** The send a provider's message id belongs to, within the company; undefined when not ours. */
export const findChannelMessage = (
  db: Db,
  channel: TChannelKey,
  companyUuid: string,
  providerMessageId: string,
) =>
  db
    .selectFrom('channel_messages')
    .selectAll()
    .where('channel', '=', channel)
    .where('provider_message_id', '=', providerMessageId)
    .where('company_uuid', '=', companyUuid)
    .executeTakeFirst();
