import type { TChannelKey } from '@ccp/schemas';
import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import { preparedQuery } from '../db/prepared.ts';
import type { Clock } from '../lib/clock.ts';
import type { AcceptedMessage, ChannelMessage } from './message.ts';

// channel_messages: each message a provider accepted, by its id there, with the send it belongs
// to. A provider's receipts (WhatsApp's `statuses`: delivered, read, failed) name only that id;
// this finds the lesson (or invitation, reminder) they are about by key, not by a scan of the
// outbox bodies. A lesson sent in parts (WhatsApp) keeps each part the moment the provider took
// it, by its index: the next attempt of the same send skips what already went.

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
  part: number | null,
  at: string,
];

// Prepared once (db/prepared.ts): written with every WhatsApp send, in the scheduler's transaction.
const insertMessage = preparedQuery<Values>(
  11,
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
    part,
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
        part: part as unknown as number,
        created_at: at,
      })
      // A part kept as it went, before its send had an outbox row: the send's own row now.
      .onConflict((oc) =>
        oc
          .columns(['channel', 'provider_message_id'])
          .doUpdateSet({ outbox_uuid: (eb) => eb.ref('excluded.outbox_uuid') }),
      ),
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
        item.part ?? null,
        at,
      ),
    );
};

/**
 * The parts of a send the provider took before its outbox row exists (an attempt that failed
 * later, or is still under way), kept at once so that no later attempt repeats them; a part
 * that is not really a part (no delivery: an invitation) is not kept.
 */
export const keepAcceptedPart = async (
  deps: { db: Db; clock: Clock },
  message: Parameters<typeof channelMessageRecords>[1],
  accepted: AcceptedMessage & { part: number },
): Promise<void> => {
  if (message.deliveryUuid === null) return;
  // The send's outbox row comes with its finish; until then the part belongs to none.
  const [query] = channelMessageRecords(deps, message, '', [accepted]);
  if (query) await deps.db.executeQuery(query);
};

// Read before every WhatsApp send (is a part of it already there?): prepared once.
const selectAcceptedParts = preparedQuery<
  [deliveryUuid: string, channel: TChannelKey, kind: string],
  { part: number | null; provider_message_id: string }
>(3, (db, deliveryUuid, channel, kind) =>
  db
    .selectFrom('channel_messages')
    .select(['part', 'provider_message_id'])
    .where('delivery_uuid', '=', deliveryUuid)
    .where('channel', '=', channel)
    .where('kind', '=', kind)
    .where('part', 'is not', null),
);

/** The parts of a lesson send (or its reminder) the provider took already, by index. */
export const acceptedParts = async (
  db: Db,
  channel: TChannelKey,
  deliveryUuid: string,
  kind: string,
): Promise<Map<number, string>> => {
  const { rows } = await selectAcceptedParts.run(db, deliveryUuid, channel, kind);
  return new Map(rows.map((row) => [Number(row.part), row.provider_message_id]));
};

/**
 * A message the provider reported it could not deliver is no part that went: a later attempt of
 * its send (a Resend) sends that part again.
 */
export const forgetUndeliveredPart = async (
  db: Db,
  channel: TChannelKey,
  providerMessageId: string,
): Promise<void> => {
  await db
    .updateTable('channel_messages')
    .set({ part: null })
    .where('channel', '=', channel)
    .where('provider_message_id', '=', providerMessageId)
    .execute();
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
