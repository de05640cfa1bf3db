import { CHANNEL_CONTACT, CONNECTION_FIELDS } from '@ccp/schemas';

import type { RenderedPayload } from '../../message.ts';
import type { ChannelModule } from '../module.ts';
import { WHATSAPP_FAILURE_CODES, createWhatsAppConnector } from './client.ts';
import { WHATSAPP, WHATSAPP_LIMITS, renderWhatsApp } from './render.ts';
import { whatsappWebhooks } from './webhook.ts';
import { setupValue, webhookUrlOf } from '../setup.ts';
import { createMissingTemplates, templatesToCreate } from './templates.ts';

// WhatsApp: the Cloud API, by the learner's phone; session messages in the 24-hour window, an
// approved template outside it.

/** How the rendered question offers its answers: reply buttons, a list, or (null) numbers typed back. */
const answersOffered = (payload: RenderedPayload): 'button' | 'list' | null => {
  const parts = [payload, ...((payload.continued as RenderedPayload[] | undefined) ?? [])];
  const last = parts.at(-1) as { type?: string; interactive?: { type?: string } } | undefined;
  if (last?.type === 'interactive') return last.interactive?.type === 'list' ? 'list' : 'button';
  return null;
};

export const whatsapp: ChannelModule = {
  key: 'whatsapp',
  contact: CHANNEL_CONTACT.whatsapp,
  connectionFields: CONNECTION_FIELDS.whatsapp,
  // The connector keeps each part of a lesson as it goes (channel_messages), so it needs the database.
  createConnector: (settings, { clock, db }) =>
    createWhatsAppConnector(settings.whatsapp, clock, db),
  render: renderWhatsApp,
  textStyle: WHATSAPP,
  previewIssues: ({ answers }, payload) => {
    if (answers.length === 0) return [];
    const offered = answersOffered(payload);
    if (offered === 'list') {
      return [
        {
          code: 'answersInList',
          params: { max: WHATSAPP_LIMITS.buttons, length: WHATSAPP_LIMITS.buttonTitle },
        },
      ];
    }
    if (offered === null) {
      return [
        { code: 'tooManyButtons', params: { count: answers.length, max: WHATSAPP_LIMITS.buttons } },
      ];
    }
    return [];
  },
  failureCodes: WHATSAPP_FAILURE_CODES,
  webhookPath: 'whatsapp',
  setup: ({ publicUrl, connection }) => ({
    values: [
      setupValue('callback_url', webhookUrlOf(publicUrl, 'whatsapp')),
      setupValue('webhook_fields', 'messages'),
    ],
    downloads: [],
    templates: templatesToCreate(connection),
  }),
  webhooks: whatsappWebhooks,
  createTemplates: (settings, connection) => createMissingTemplates(settings.whatsapp, connection),
};
