import { randomUUID } from 'node:crypto';

import { whatsappSignature } from '../../src/delivery/channels/whatsapp/inbound.ts';
import { listen, sendJson } from './http.ts';

// A fake WhatsApp Cloud API (Graph v21.0) on 127.0.0.1: the access token as a Bearer,
// GET /{phone-number-id}, GET /{waba-id}/message_templates, POST /{phone-number-id}/messages
// validating each message object against the documented limits (text ≤ 4 096; interactive body
// ≤ 1 024; ≤ 3 reply buttons with titles ≤ 20 and unique ids ≤ 256; a list with ≤ 10 rows,
// titles ≤ 24, descriptions ≤ 72, button ≤ 20; a template only by its approved name with its one
// body parameter, on one line, and a quick-reply payload ≤ 128) and the 24-hour window: anything
// but a template to someone who has not written answers error 131047. A learner's message comes
// back as Meta sends it, signed with X-Hub-Signature-256.

export const GRAPH_VERSION = 'v21.0';

export type WhatsAppMessage = { id: string; to: string; type: string } & Record<string, any>;

export const startFakeWhatsApp = async ({
  token = 'whatsapp-access-token',
  appSecret = 'whatsapp-app-secret',
  phoneNumberId = '106540352242922',
  businessAccountId = '102290129340398',
  templateName = 'ccp_new_lesson',
  onMessage,
}: {
  token?: string;
  appSecret?: string;
  phoneNumberId?: string;
  businessAccountId?: string;
  templateName?: string;
  /** Called with each message taken, before the answer goes back (bench/delivery.ts kills there). */
  onMessage?: (message: WhatsAppMessage) => void;
} = {}) => {
  const messages: WhatsAppMessage[] = [];
  const refused: { problems: string[] }[] = [];
  /** wa_ids that wrote to the business (their window is open). */
  const wrote = new Set<string>();
  const prefix = `/${GRAPH_VERSION}`;
  let rateLimited = 0;

  const problemsOf = (json: Record<string, any>): string[] => {
    const problems: string[] = [];
    if (json.messaging_product !== 'whatsapp') problems.push('messaging_product');
    const to = String(json.to ?? '').replace(/^\+/, '');
    if (!/^\d{8,15}$/.test(to)) problems.push(`to ${json.to}`);
    if (json.type !== 'template' && !wrote.has(to)) problems.push('131047');
    if (json.type === 'text') {
      const body = String(json.text?.body ?? '');
      if (body.length === 0 || body.length > 4096) problems.push(`text.body ${body.length}`);
    } else if (json.type === 'interactive') {
      const interactive = json.interactive ?? {};
      const body = String(interactive.body?.text ?? '');
      if (body.length === 0 || body.length > 1024) problems.push(`interactive.body ${body.length}`);
      if (interactive.type === 'button') {
        const buttons = (interactive.action?.buttons ?? []) as any[];
        if (buttons.length < 1 || buttons.length > 3) problems.push(`buttons ${buttons.length}`);
        const ids = new Set(buttons.map((button) => String(button.reply?.id)));
        if (ids.size !== buttons.length) problems.push('button ids not unique');
        for (const button of buttons) {
          if (button.type !== 'reply') problems.push('button type');
          const title = String(button.reply?.title ?? '');
          if (title.length === 0 || [...title].length > 20) problems.push(`button title ${title}`);
          if (String(button.reply?.id ?? '').length > 256) problems.push('button id > 256');
        }
      } else if (interactive.type === 'list') {
        const label = String(interactive.action?.button ?? '');
        if (label.length === 0 || [...label].length > 20) problems.push(`list button ${label}`);
        const sections = (interactive.action?.sections ?? []) as any[];
        const rows: any[] = sections.flatMap((section): unknown[] => section.rows ?? []);
        if (sections.length < 1 || sections.length > 10) problems.push('sections');
        if (rows.length < 1 || rows.length > 10) problems.push(`rows ${rows.length}`);
        for (const row of rows) {
          if ([...String(row.title ?? '')].length > 24 || !row.title) problems.push('row title');
          if ([...String(row.description ?? '')].length > 72) problems.push('row description');
          if (String(row.id ?? '').length > 200 || !row.id) problems.push('row id');
        }
      } else problems.push(`interactive.type ${interactive.type}`);
    } else if (json.type === 'template') {
      const template = json.template ?? {};
      if (template.name !== templateName) problems.push(`template ${template.name} not approved`);
      if (!['en', 'it', 'de'].includes(template.language?.code)) problems.push('language');
      const components = (template.components ?? []) as any[];
      const body = components.find((component) => component.type === 'body');
      const params = (body?.parameters ?? []) as any[];
      if (params.length !== 1) problems.push(`body parameters ${params.length}`);
      for (const param of params) {
        const text = String(param.text ?? '');
        if (/[\n\t]| {5}/.test(text) || text.length === 0) problems.push('parameter text');
      }
      for (const button of components.filter((component) => component.type === 'button')) {
        if (button.sub_type !== 'quick_reply' || button.index !== '0') problems.push('button');
        const payload = String(button.parameters?.[0]?.payload ?? '');
        if (payload.length === 0 || payload.length > 128) problems.push('payload');
      }
    } else problems.push(`type ${json.type}`);
    return problems;
  };

  const listening = await listen((request, response, body) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    const graphError = (status: number, code: number, message: string) =>
      sendJson(response, status, {
        error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf' },
      });
    if (request.headers.authorization !== `Bearer ${token}`)
      return graphError(401, 190, 'Invalid OAuth access token.');
    if (request.method === 'GET' && path === `${prefix}/${phoneNumberId}`) {
      return sendJson(response, 200, {
        id: phoneNumberId,
        display_phone_number: '+1 555 010 0100',
        verified_name: 'CCP',
      });
    }
    if (request.method === 'GET' && path === `${prefix}/${businessAccountId}/message_templates`) {
      const name = url.searchParams.get('name');
      const all = [{ name: templateName, status: 'APPROVED', language: 'en', category: 'UTILITY' }];
      return sendJson(response, 200, { data: all.filter((item) => !name || item.name === name) });
    }
    if (request.method === 'POST' && path === `${prefix}/${phoneNumberId}/messages`) {
      if (rateLimited > 0) {
        rateLimited -= 1;
        // Throughput over the number's level: 130429, with no Retry-After (Meta sends none).
        return graphError(429, 130429, '(#130429) Rate limit hit');
      }
      const json = JSON.parse(body) as Record<string, any>;
      const problems = problemsOf(json);
      if (problems.includes('131047')) {
        refused.push({ problems });
        return graphError(
          400,
          131047,
          'Re-engagement message: more than 24 hours have passed since the recipient last replied.',
        );
      }
      if (problems.length > 0) {
        refused.push({ problems });
        return graphError(400, 100, `(#100) Invalid parameter: ${problems.join('; ')}`);
      }
      const to = String(json.to).replace(/^\+/, '');
      const message = { ...json, id: `wamid.${randomUUID()}`, to };
      messages.push(message as WhatsAppMessage);
      onMessage?.(message as WhatsAppMessage);
      return sendJson(response, 200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: json.to, wa_id: to }],
        messages: [{ id: message.id }],
      });
    }
    return graphError(404, 100, `Unsupported ${request.method} request ${path}`);
  });

  /** The webhook Meta posts when `from` writes: `content` is one message object's own part. */
  const inbound = (
    from: string,
    content: Record<string, unknown>,
    { secret = appSecret, id = `wamid.${randomUUID()}` }: { secret?: string; id?: string } = {},
  ) => {
    wrote.add(from);
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: businessAccountId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550100100', phone_number_id: phoneNumberId },
                contacts: [{ profile: { name: 'Learner' }, wa_id: from }],
                messages: [
                  { from, id, timestamp: String(Math.floor(Date.now() / 1000)), ...content },
                ],
              },
            },
          ],
        },
      ],
    });
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': whatsappSignature(secret, body),
      },
    };
  };

  return {
    apiUrl: `${listening.baseUrl}${prefix}`,
    token,
    appSecret,
    phoneNumberId,
    businessAccountId,
    templateName,
    messages,
    refused,
    close: listening.close,
    inbound,
    /** The next `count` sends answer 429 with error 130429 (over the number's throughput). */
    rateLimit: (count: number) => {
      rateLimited = count;
    },
    /** The learner taps the template's quick reply. */
    tapTemplate: (
      message: WhatsAppMessage,
      options?: { secret?: string; from?: string; id?: string },
    ) => {
      const button = (message.template.components as any[]).find((c) => c.type === 'button');
      return inbound(
        options?.from ?? message.to,
        { type: 'button', button: { text: 'Start', payload: button.parameters[0].payload } },
        options,
      );
    },
    /** The learner taps reply button `index` of an interactive message. */
    tapButton: (
      message: WhatsAppMessage,
      index: number,
      options?: { secret?: string; from?: string; id?: string },
    ) => {
      const reply = message.interactive.action.buttons[index].reply;
      return inbound(
        options?.from ?? message.to,
        { type: 'interactive', interactive: { type: 'button_reply', button_reply: reply } },
        options,
      );
    },
    /** The learner types a text. */
    typeText: (from: string, text: string) => inbound(from, { type: 'text', text: { body: text } }),
  };
};
