import type { TReactionText } from '@ccp/data-provider';
import { MESSAGES, messageKey, messageTemplateOf } from '@ccp/schemas';
import type { TMessageKey } from '@ccp/schemas';

/**
 * A text to show, as the client reported it (English, spec §7/§8), with the key that translates
 * it (`validation.<key>` in locales/) when it is one of the spec's known texts.
 */
export type TMessage = {
  text: string;
  key?: TMessageKey;
  detail?: string;
  /** The values of a filled-in template ("The phone {{number}} …"). */
  params?: Record<string, string>;
};

const PREFIX = `${MESSAGES.serverErrorPrefix} `;

/** Finds the translation key of a client or server text ("Server error: …" keeps its detail). */
export const describeMessage = (text: string): TMessage => {
  const key = messageKey(text);
  if (key) return { text, key };
  const template = messageTemplateOf(text);
  if (template) return { text, key: template.key, params: template.params };
  if (text.startsWith(PREFIX)) {
    return { text, key: 'serverErrorPrefix', detail: text.slice(PREFIX.length) };
  }
  return { text };
};

/**
 * What a reaction of the http client shows: a text the client chose itself by its key; a server
 * text as sent (the server said it in the language the app asked for), unless it is one of the
 * spec's English texts, which an English-only server may still send.
 */
export const reactionMessage = (reaction: TReactionText): TMessage =>
  reaction.key
    ? {
        text: reaction.message,
        key: reaction.key,
        ...(reaction.detail ? { detail: reaction.detail } : {}),
      }
    : describeMessage(reaction.message);
