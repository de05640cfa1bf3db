import { randomUUID } from 'node:crypto';

import { whatsappSignature } from '../../src/delivery/channels/whatsapp/inbound.ts';
import { listen, sendJson } from './http.ts';

// A fake WhatsApp Cloud API (Graph v21.0) on 127.0.0.1: the access token as a Bearer,
// GET /{phone-number-id}, GET /{waba-id}/message_templates, POST /{phone-number-id}/messages
// validating each message object against Meta's documentation, and the webhooks Meta posts,
// signed with X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the app secret). Each rule
// names its page:
// - text ≤ 4 096 characters (https://developers.facebook.com/docs/whatsapp/cloud-api/messages/text-messages);
// - interactive reply buttons: body ≤ 1 024, 1 to 3 buttons, titles ≤ 20, unique ids ≤ 256
//   (https://developers.facebook.com/docs/whatsapp/cloud-api/messages/interactive-reply-buttons-messages);
//   a list: ≤ 10 rows, titles ≤ 24, descriptions ≤ 72, button ≤ 20
//   (https://developers.facebook.com/docs/whatsapp/cloud-api/messages/interactive-list-messages);
// - a template only by an approved name, its parameters as the template declares them (one body
//   parameter on one line; one `quick_reply` button component per quick reply it has, indexes from
//   0, each payload ≤ 128), else 132000 "Number of parameters does not match"
//   (https://developers.facebook.com/docs/whatsapp/cloud-api/guides/send-message-templates);
// - the 24-hour customer service window: anything but a template to someone who has not written
//   answers 131047 (https://developers.facebook.com/docs/whatsapp/cloud-api/guides/send-messages#customer-service-windows);
// - errors as the error-code reference gives them, with their HTTP status: 130429 (429)
//   throughput, 131056 (400) pair rate, 131000 (500) something went wrong, 131047 (400)
//   re-engagement (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes);
// - webhooks: a learner's message in `value.messages[]` (a tap on a template quick reply is
//   type `button` with its payload, a reply button `interactive.button_reply`, both with
//   `context.id` the wamid tapped on), a status of ours in `value.statuses[]` (sent, delivered,
//   read, failed with `errors[]`) (https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components).

export const GRAPH_VERSION = 'v21.0';
const BUSINESS_NUMBER = '15550100100';

export type WhatsAppMessage = { id: string; to: string; type: string } & Record<string, any>;

/** A Graph error as Meta answers it; `userMessage` the words meant for the person (error_user_msg). */
const graphErrorOf = (status: number, code: number, message: string, userMessage?: string) => ({
  status,
  body: {
    error: {
      message,
      type: 'OAuthException',
      code,
      ...(userMessage ? { error_user_msg: userMessage } : {}),
      fbtrace_id: 'AbCdEf',
    },
  },
});

export const startFakeWhatsApp = async ({
  token = 'whatsapp-access-token',
  appSecret = 'whatsapp-app-secret',
  phoneNumberId = '106540352242922',
  businessAccountId = '102290129340398',
  templateName = 'ccp_new_lesson',
  invitationTemplateName = 'ccp_invitation',
  templateLanguages = ['en', 'it', 'de'],
  invitationTemplateLanguages = ['en', 'it', 'de'],
  manageTemplates = true,
  onMessage,
}: {
  token?: string;
  appSecret?: string;
  phoneNumberId?: string;
  businessAccountId?: string;
  templateName?: string;
  /** The approved invitation template: the course's name, then Join and Decline quick replies. */
  invitationTemplateName?: string;
  /** The languages the lesson template is approved in (the invitation template: en, it, de). */
  templateLanguages?: string[];
  /** The languages the invitation template is approved in. */
  invitationTemplateLanguages?: string[];
  /** False: the token lacks whatsapp_business_management, and creating a template is refused. */
  manageTemplates?: boolean;
  /** Called with each message taken, before the answer goes back (bench/delivery.ts kills there). */
  onMessage?: (message: WhatsAppMessage) => void;
} = {}) => {
  const messages: WhatsAppMessage[] = [];
  const refused: { problems: string[] }[] = [];
  /** wa_ids that wrote to the business (their window is open). */
  const wrote = new Set<string>();
  const prefix = `/${GRAPH_VERSION}`;
  /** Approved templates, the languages of each, and how many quick-reply buttons each declares. */
  const templates = new Map([
    [templateName, { quickReplies: 1, languages: templateLanguages }],
    [invitationTemplateName, { quickReplies: 2, languages: invitationTemplateLanguages }],
  ]);
  /** Templates created through the API, as Meta holds them while it reviews them (PENDING). */
  const created: {
    id: string;
    name: string;
    language: string;
    category: string;
    status: string;
    components: Record<string, any>[];
  }[] = [];
  /** Errors the next matching sends answer, in order (error-code reference, with their status). */
  const faults: {
    status: number;
    code: number;
    message: string;
    match: (json: Record<string, any>) => boolean;
  }[] = [];

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
        // https://developers.facebook.com/documentation/business-messaging/whatsapp/messages/interactive-list-messages:
        // up to 10 sections and 10 rows in all; a section's title (at most 24 characters) is
        // required once there is more than one section, and row ids are unique in the message.
        for (const section of sections) {
          const title = String(section.title ?? '');
          if ((sections.length > 1 && !title) || [...title].length > 24)
            problems.push(`section title ${title}`);
        }
        if (new Set(rows.map((row) => String(row.id))).size !== rows.length)
          problems.push('row ids not unique');
        for (const row of rows) {
          if ([...String(row.title ?? '')].length > 24 || !row.title) problems.push('row title');
          if ([...String(row.description ?? '')].length > 72) problems.push('row description');
          if (String(row.id ?? '').length > 200 || !row.id) problems.push('row id');
        }
      } else problems.push(`interactive.type ${interactive.type}`);
    } else if (json.type === 'template') {
      const template = json.template ?? {};
      const declared = templates.get(template.name);
      if (!declared) problems.push(`template ${template.name} not approved`);
      // A language the template was not approved in: 132001 (error-code reference).
      if (declared && !declared.languages.includes(template.language?.code))
        problems.push('132001');
      const components = (template.components ?? []) as any[];
      const body = components.find((component) => component.type === 'body');
      const params = (body?.parameters ?? []) as any[];
      if (params.length !== 1) problems.push(`body parameters ${params.length}`);
      for (const param of params) {
        const text = String(param.text ?? '');
        if (/[\n\t]| {5}/.test(text) || text.length === 0) problems.push('parameter text');
      }
      const buttons = components.filter((component) => component.type === 'button');
      const indexes = buttons.map((button) => String(button.index)).sort();
      const expected = Array.from({ length: declared?.quickReplies ?? 0 }, (_, i) => String(i));
      if (declared && indexes.join() !== expected.join()) problems.push('132000');
      for (const button of buttons) {
        if (button.sub_type !== 'quick_reply') problems.push('button');
        const payload = String(button.parameters?.[0]?.payload ?? '');
        if (payload.length === 0 || payload.length > 128) problems.push('payload');
      }
    } else problems.push(`type ${json.type}`);
    return problems;
  };

  /**
   * POST /{waba-id}/message_templates as Meta documents it
   * (https://developers.facebook.com/docs/graph-api/reference/whats-app-business-account/message_templates/#Creating;
   * https://developers.facebook.com/documentation/business-messaging/whatsapp/templates/overview):
   * name of lowercase letters, digits and underscores (≤ 512), a language, category UTILITY,
   * MARKETING or AUTHENTICATION, a BODY (≤ 1 024 characters) whose variables each have a sample
   * (`example.body_text`, https://developers.facebook.com/docs/whatsapp/business-management-api/message-templates/components),
   * quick replies of ≤ 25 characters (same page); the token needs whatsapp_business_management
   * (else error 10, permission denied); a name already held in that language is refused. Meta
   * answers `{ id, status: "PENDING", category }` and reviews it.
   */
  const createTemplate = (json: Record<string, any>): { status: number; body: unknown } => {
    if (!manageTemplates) {
      return graphErrorOf(403, 10, '(#10) Application does not have permission for this action');
    }
    const problems: string[] = [];
    const name = String(json.name ?? '');
    if (!/^[a-z0-9_]{1,512}$/.test(name)) problems.push(`name ${name}`);
    if (!json.language) problems.push('language');
    if (!['UTILITY', 'MARKETING', 'AUTHENTICATION'].includes(json.category))
      problems.push(`category ${json.category}`);
    const components = (json.components ?? []) as Record<string, any>[];
    const body = components.find((component) => component.type === 'BODY');
    const text = String(body?.text ?? '');
    if (text.length === 0 || text.length > 1024) problems.push(`body ${text.length}`);
    const variables = new Set(text.match(/\{\{\s*\d+\s*\}\}/g) ?? []).size;
    const samples = (body?.example?.body_text?.[0] ?? []) as unknown[];
    if (variables > 0 && samples.length !== variables) problems.push('body example');
    for (const component of components.filter((item) => item.type === 'BUTTONS')) {
      for (const button of component.buttons ?? []) {
        if (button.type !== 'QUICK_REPLY') problems.push(`button ${button.type}`);
        const label = String(button.text ?? '');
        if (label.length === 0 || [...label].length > 25) problems.push(`button text ${label}`);
      }
    }
    if (problems.length > 0)
      return graphErrorOf(400, 100, `(#100) Invalid parameter: ${problems.join('; ')}`);
    const held =
      templates.get(name)?.languages.includes(json.language) ||
      created.some((item) => item.name === name && item.language === json.language);
    if (held) {
      return graphErrorOf(
        400,
        100,
        'Invalid parameter',
        'Content in this language already exists for the message template.',
      );
    }
    const template = {
      id: String(Math.floor(Math.random() * 1e15)),
      name,
      language: String(json.language),
      category: String(json.category),
      status: 'PENDING',
      components,
    };
    created.push(template);
    return {
      status: 200,
      body: { id: template.id, status: template.status, category: template.category },
    };
  };

  const listening = await listen((request, response, body) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    const answer = ({ status, body: json }: { status: number; body: unknown }) =>
      sendJson(response, status, json);
    const graphError = (status: number, code: number, message: string) =>
      answer(graphErrorOf(status, code, message));
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
      // One entry per name and language, with its components (the WABA's message_templates
      // edge, https://developers.facebook.com/docs/graph-api/reference/whats-app-business-account/message_templates/).
      const all = [...templates].flatMap(([item, { quickReplies, languages }]) =>
        languages.map((language) => ({
          name: item,
          status: 'APPROVED',
          language,
          category: 'UTILITY',
          components: [
            { type: 'BODY', text: 'Your lesson of today: {{1}}' },
            {
              type: 'BUTTONS',
              buttons: Array.from({ length: quickReplies }, (_, index) => ({
                type: 'QUICK_REPLY',
                text: `Reply ${index + 1}`,
              })),
            },
          ],
        })),
      );
      const listed = [...all, ...created];
      return sendJson(response, 200, {
        data: listed.filter((item) => !name || item.name === name),
      });
    }
    if (request.method === 'POST' && path === `${prefix}/${businessAccountId}/message_templates`) {
      return answer(createTemplate(JSON.parse(body) as Record<string, any>));
    }
    if (request.method === 'POST' && path === `${prefix}/${phoneNumberId}/messages`) {
      const json = JSON.parse(body) as Record<string, any>;
      const fault = faults.findIndex((item) =>
        item.match({ ...json, to: String(json.to ?? '').replace(/^\+/, '') }),
      );
      if (fault >= 0) {
        // Meta sends no Retry-After with its rate limits.
        const [{ status, code, message }] = faults.splice(fault, 1) as [(typeof faults)[number]];
        refused.push({ problems: [String(code)] });
        return graphError(status, code, `(#${code}) ${message}`);
      }
      const problems = problemsOf(json);
      if (problems.includes('131047')) {
        refused.push({ problems });
        return graphError(
          400,
          131047,
          'Re-engagement message: more than 24 hours have passed since the recipient last replied.',
        );
      }
      if (problems.includes('132001')) {
        refused.push({ problems });
        return graphError(400, 132001, '(#132001) Template name does not exist in the translation');
      }
      if (problems.includes('132000')) {
        refused.push({ problems });
        return graphError(
          400,
          132000,
          '(#132000) Number of parameters does not match the expected number of params',
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

  /** A webhook as Meta posts it: `value` is the change's value besides its product and metadata. */
  const webhook = (value: Record<string, unknown>, secret = appSecret) => {
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
                metadata: { display_phone_number: BUSINESS_NUMBER, phone_number_id: phoneNumberId },
                ...value,
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

  /** The webhook Meta posts when `from` writes: `content` is one message object's own part. */
  const inbound = (
    from: string,
    content: Record<string, unknown>,
    { secret = appSecret, id = `wamid.${randomUUID()}` }: { secret?: string; id?: string } = {},
  ) => {
    wrote.add(from);
    return webhook(
      {
        contacts: [{ profile: { name: 'Learner' }, wa_id: from }],
        messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), ...content }],
      },
      secret,
    );
  };
  /** Our number as Meta writes it in webhooks (`metadata`, `context.from`). */
  const tapOn = (message: WhatsAppMessage) => ({ from: BUSINESS_NUMBER, id: message.id });

  return {
    apiUrl: `${listening.baseUrl}${prefix}`,
    /** What an administrator types to connect this fake (its ids, token and app secret). */
    connectionFields: {
      business_account_id: businessAccountId,
      phone_number_id: phoneNumberId,
      template_name: templateName,
      access_token: token,
      app_secret: appSecret,
      verify_token: 'fake-whatsapp-verify-token',
    },
    token,
    appSecret,
    phoneNumberId,
    businessAccountId,
    templateName,
    invitationTemplateName,
    messages,
    refused,
    /** The templates created through the API (PENDING until `approve`). */
    created,
    /** Meta's review approves the created templates: they list as APPROVED and can be sent. */
    approve: () => {
      for (const template of created.splice(0)) {
        const held = templates.get(template.name);
        if (held) held.languages = [...held.languages, template.language];
      }
    },
    close: listening.close,
    inbound,
    /** The next `count` sends answer 429 with error 130429 (over the number's throughput). */
    rateLimit: (count: number) => {
      for (let i = 0; i < count; i += 1) {
        faults.push({ status: 429, code: 130429, message: 'Rate limit hit', match: () => true });
      }
    },
    /**
     * The next send `match` accepts (`to` as the wa_id) answers Graph error `code` with its
     * documented HTTP status:
     * 131056 (400) pair rate limit hit, 131000 (500) something went wrong, 131047 (400)
     * re-engagement message, 131026 (400) message undeliverable.
     */
    failNext: (code: number, match: (json: Record<string, any>) => boolean = () => true) => {
      const known: Record<number, [number, string]> = {
        131056: [400, '(Business Account, Consumer Account) pair rate limit hit'],
        131000: [500, 'Something went wrong'],
        131047: [400, 'Re-engagement message'],
        131026: [400, 'Message undeliverable'],
      };
      const [status, message] = known[code] ?? [400, 'Error'];
      faults.push({ status, code, message, match });
    },
    /** The learner's 24-hour window closes (more than a day since they last wrote). */
    closeWindow: (waId: string) => {
      wrote.delete(waId);
    },
    /** Meta reports what became of a message of ours (`statuses[]`); `failed` with its error. */
    status: (
      message: WhatsAppMessage,
      status: 'sent' | 'delivered' | 'read' | 'failed',
      { errorCode, timestamp = new Date() }: { errorCode?: number; timestamp?: Date } = {},
    ) =>
      webhook({
        statuses: [
          {
            id: message.id,
            status,
            timestamp: String(Math.floor(timestamp.getTime() / 1000)),
            recipient_id: message.to,
            ...(status === 'failed'
              ? {
                  errors: [
                    {
                      code: errorCode ?? 131026,
                      title: 'Message undeliverable',
                      message: 'Message undeliverable',
                      error_data: { details: 'Message Undeliverable.' },
                    },
                  ],
                }
              : {}),
          },
        ],
      }),
    /** The learner taps quick reply `index` of a template (a lesson's Start; Join 0, Decline 1). */
    tapTemplate: (
      message: WhatsAppMessage,
      options?: { secret?: string; from?: string; id?: string; index?: number },
    ) => {
      const index = String(options?.index ?? 0);
      const button = (message.template.components as any[]).find(
        (c) => c.type === 'button' && c.index === index,
      );
      return inbound(
        options?.from ?? message.to,
        {
          type: 'button',
          context: tapOn(message),
          button: { text: 'Start', payload: button.parameters[0].payload },
        },
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
        {
          type: 'interactive',
          context: tapOn(message),
          interactive: { type: 'button_reply', button_reply: reply },
        },
        options,
      );
    },
    /** The learner types a text. */
    typeText: (from: string, text: string) => inbound(from, { type: 'text', text: { body: text } }),
  };
};
