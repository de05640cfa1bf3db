import type { Kysely } from 'kysely';

// Issue 27: the channel is WhatsApp everywhere (its own spelling, as the locales and the
// Channels page write it); the reference data of 0002 named it "Whatsapp", which the learner
// form, the learner list and the exports showed beside "WhatsApp". A client may still send
// `channel_name: "Whatsapp"` (spec §learners): channel names are matched without case.
type TChannels = { channels: { key: string; name: string } };

const nameWhatsApp = async (db: Kysely<unknown>, name: string) => {
  await (db as Kysely<TChannels>)
    .updateTable('channels')
    .set({ name })
    .where('key', '=', 'whatsapp')
    .execute();
};

export const up = (db: Kysely<unknown>): Promise<void> => nameWhatsApp(db, 'WhatsApp');

export const down = (db: Kysely<unknown>): Promise<void> => nameWhatsApp(db, 'Whatsapp');
