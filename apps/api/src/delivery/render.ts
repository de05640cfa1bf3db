import type { TChannelKey } from '@ccp/schemas';

import { renderGoogleChat } from './channels/google-chat/render.ts';
import { renderSlack } from './channels/slack/render.ts';
import { renderTeamsActivity } from './channels/teams/render.ts';
import { renderWebex } from './channels/webex/render.ts';
import { renderWhatsApp } from './channels/whatsapp/render.ts';
import type { ChannelMessage, RenderedPayload } from './message.ts';

export * from './render-common.ts';

// What each channel is sent: one renderer per channel (channels/<channel>/render.ts: Teams'
// Adaptive Card activity, Slack blocks, WhatsApp's session messages, Webex markdown and card,
// Google Chat's card), the same for its connector, for the outbox when the channel is not
// connected, and for the wizard's channel preview. A lesson sent as several messages answers
// the first with the others in `continued`.

const RENDERERS: Record<TChannelKey, (message: ChannelMessage) => RenderedPayload> = {
  'ms-teams': renderTeamsActivity,
  slack: renderSlack,
  whatsapp: renderWhatsApp,
  webex: renderWebex,
  'google-chat': renderGoogleChat,
};

/** The payload `channel` is sent for a message. */
export const renderPayload = (channel: TChannelKey, message: ChannelMessage): RenderedPayload =>
  RENDERERS[channel](message);
