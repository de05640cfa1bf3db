import { LOCALES } from '@ccp/schemas';
import type { TConnectionProof, TTemplateCreation } from '@ccp/schemas';

import type { Db } from '../../../db/index.ts';
import { t } from '../../../i18n/texts.ts';
import { learnersOnChannel } from '../../../learners/learners-repository.ts';
import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connection } from '../../message.ts';
import { ProviderHttpError, callJson } from '../http.ts';
import { proof } from '../proofs.ts';

// The templates a WhatsApp connection names, checked per language as Meta holds them: the WABA's
// message_templates edge answers one entry per name and language, each with its status and
// components (https://developers.facebook.com/docs/graph-api/reference/whats-app-business-account/message_templates/).
// A send in a language the template lacks fails with 132001 "Template name does not exist in the
// translation" (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes), so
// the connection test names the learners' languages without an approved, well-formed one.

type GraphComponent = { type: string; text?: string; buttons?: { type: string }[] };
type GraphTemplate = {
  name: string;
  status: string;
  language: string;
  components?: GraphComponent[];
};

/** What a template must declare: one body variable, then this many quick-reply buttons. */
export type TemplateShape = { quickReplies: number };

/** The lesson template: the lesson's title, then Start. */
export const LESSON_TEMPLATE: TemplateShape = { quickReplies: 1 };
/** The invitation template: the course's name, then Join and Decline. */
export const INVITATION_TEMPLATE: TemplateShape = { quickReplies: 2 };

/** Meta's codes are `en`, `en_US`, `pt_BR`…; a learner reads the language part. */
const languageOf = (code: string) => code.split(/[-_]/)[0]!.toLowerCase();

/** What is wrong with one language's template, in a few words (empty: nothing). */
const problemsOf = (template: GraphTemplate, shape: TemplateShape): string[] => {
  const problems: string[] = [];
  if (template.status !== 'APPROVED') problems.push(template.status.toLowerCase());
  const components = template.components ?? [];
  const body = components.find((component) => component.type.toUpperCase() === 'BODY');
  const variables = new Set(body?.text?.match(/\{\{\s*[^}]+\s*\}\}/g) ?? []).size;
  if (variables !== 1) problems.push(`${variables} body variables`);
  const quickReplies = components
    .filter((component) => component.type.toUpperCase() === 'BUTTONS')
    .flatMap((component) => component.buttons ?? [])
    .filter((button) => button.type.toUpperCase() === 'QUICK_REPLY').length;
  if (quickReplies !== shape.quickReplies) problems.push(`${quickReplies} quick-reply buttons`);
  return problems;
};

/** Every language Meta holds of the template `name`, with its status and components. */
const templatesNamed = async (
  settings: ChannelSettings['whatsapp'],
  connection: Connection,
  name: string,
  codeOf?: Parameters<typeof callJson>[0]['codeOf'],
): Promise<GraphTemplate[]> => {
  const account = encodeURIComponent(connection.providerIds.business_account_id ?? '');
  const { data } = await callJson<{ data: GraphTemplate[] }>({
    url: `${settings.apiUrl}/${account}/message_templates?name=${encodeURIComponent(name)}&fields=name,status,language,components`,
    token: connection.secrets.access_token ?? '',
    codeOf,
  });
  return data.filter((item) => item.name === name);
};

export type TemplateCheck = {
  /** The languages with an approved, well-formed template, e.g. "de, en" (empty: none). */
  languages: string;
  /** The languages whose template only waits for Meta's review (PENDING), e.g. "de, it". */
  pending: string;
  /** Per language, what is wrong with its template ("it: pending"). */
  problems: string[];
  /** The learners whose language has no usable template, by language ("it: Anna Rossi, …"). */
  gaps: string[];
};

/**
 * Fetches every language of the template `name` and checks each against `shape`. With no usable
 * language at all nothing could go outside the 24-hour window: the test then fails with
 * `templateRefusal`.
 */
export const checkTemplate = async (
  settings: ChannelSettings['whatsapp'],
  connection: Connection,
  { name, shape, db }: { name: string; shape: TemplateShape; db?: Db },
  codeOf: Parameters<typeof callJson>[0]['codeOf'],
): Promise<TemplateCheck> => {
  const data = await templatesNamed(settings, connection, name, codeOf);
  const usable = new Set<string>();
  const pending = new Set<string>();
  const problems: string[] = [];
  for (const template of data) {
    const wrong = problemsOf(template, shape);
    if (wrong.length === 0) usable.add(languageOf(template.language));
    else problems.push(`${template.language}: ${wrong.join(', ')}`);
    if (wrong.length === 1 && template.status === 'PENDING') pending.add(template.language);
  }
  const learners = db ? await learnersOnChannel(db, connection.companyUuid, 'whatsapp') : [];
  const missing = new Map<string, string[]>();
  for (const learner of learners.filter((item) => !usable.has(item.language))) {
    missing.set(learner.language, [...(missing.get(learner.language) ?? []), learner.name]);
  }
  return {
    languages: [...usable].sort().join(', '),
    pending: [...pending].sort().join(', '),
    problems,
    gaps: [...missing].map(([language, names]) => `${language}: ${names.join(', ')}`),
  };
};

/** Why a template no language of which is usable fails the connection test. */
export const templateRefusal = (name: string, check: TemplateCheck) =>
  `template ${name} is not approved and well-formed in any language${check.problems.length > 0 ? ` (${check.problems.join('; ')})` : ''}`;

/**
 * The test's items for a template: approved in these languages, waiting for Meta's review, or
 * unusable; and whether every learner's language has one.
 */
export const templateProofs = (
  key: 'lesson_template' | 'invitation_template',
  check: TemplateCheck,
): TConnectionProof[] => {
  const pendingLanguages = new Set(check.pending.split(', '));
  const refused = check.problems.filter((problem) => !pendingLanguages.has(problem.split(':')[0]!));
  const items = [
    ...(check.languages !== '' ? [proof(key, 'proved', check.languages)] : []),
    ...(check.pending !== '' ? [proof(key, 'pending', check.pending)] : []),
    ...(refused.length > 0 || (check.languages === '' && check.pending === '')
      ? [proof(key, 'failed', refused.join('; '))]
      : []),
  ];
  if (check.languages === '' || key !== 'lesson_template') return items;
  return [
    ...items,
    check.gaps.length > 0
      ? proof('template_gaps', 'failed', check.gaps.join('; '))
      : proof('template_gaps', 'proved'),
  ];
};

/** The names the guide proposes until the connection names its own. */
export const DEFAULT_TEMPLATE_NAMES = { lesson: 'ccp_new_lesson', invitation: 'ccp_invitation' };

/**
 * The templates to create, in every language the product speaks to learners: the lesson's (its
 * title, then Start) and the invitation's (the course's name, then Join and Decline), UTILITY.
 */
export const templatesToCreate = (connection: Connection | null) =>
  LOCALES.flatMap((language) => [
    {
      name: connection?.providerIds.template_name || DEFAULT_TEMPLATE_NAMES.lesson,
      language,
      category: 'UTILITY',
      body: t(language, 'server.channel.templateLesson'),
      example: t(language, 'server.channel.templateLessonExample'),
      quick_replies: [t(language, 'server.channel.templateStart')],
    },
    {
      name: connection?.providerIds.invitation_template_name || DEFAULT_TEMPLATE_NAMES.invitation,
      language,
      category: 'UTILITY',
      body: t(language, 'server.channel.templateInvitation'),
      example: t(language, 'server.channel.templateInvitationExample'),
      quick_replies: [t(language, 'server.channel.join'), t(language, 'server.channel.decline')],
    },
  ]);

type GraphError = { error?: { message?: string; error_user_msg?: string } };

/** Meta's own words for a refusal: the message meant for the user, else the error's. */
const metaMessage = (error: unknown): string => {
  if (error instanceof ProviderHttpError) {
    const body = error.body as GraphError | null;
    return body?.error?.error_user_msg || body?.error?.message || error.message;
  }
  return error instanceof Error ? error.message : String(error);
};

/**
 * "Create missing templates": every template of the guide (templatesToCreate) that Meta does not
 * hold in its language is created through the WABA's message_templates edge
 * (https://developers.facebook.com/docs/graph-api/reference/whats-app-business-account/message_templates/#Creating,
 * `POST /{waba-id}/message_templates` with name, language, category and components), its body's
 * variable with a sample value as Meta requires of any variable
 * (https://developers.facebook.com/docs/whatsapp/business-management-api/message-templates/components,
 * "If your templates use variables, you must include sample variable values"). Meta answers its
 * id and status, PENDING while it reviews the template; a refusal (a token without
 * whatsapp_business_management, a name taken) is said in Meta's words, per language.
 */
export const createMissingTemplates = async (
  settings: ChannelSettings['whatsapp'],
  connection: Connection,
): Promise<TTemplateCreation[]> => {
  const wanted = templatesToCreate(connection);
  const held = new Map<string, Map<string, string>>();
  const results: TTemplateCreation[] = [];
  for (const template of wanted) {
    const base = { name: template.name, language: template.language };
    try {
      if (!held.has(template.name)) {
        const languages = await templatesNamed(settings, connection, template.name);
        held.set(template.name, new Map(languages.map((item) => [item.language, item.status])));
      }
      const status = held.get(template.name)!.get(template.language);
      if (status !== undefined) {
        results.push({ ...base, outcome: 'exists', status, error: null });
        continue;
      }
      const created = await callJson<{ id: string; status?: string }>({
        method: 'POST',
        url: `${settings.apiUrl}/${encodeURIComponent(connection.providerIds.business_account_id ?? '')}/message_templates`,
        token: connection.secrets.access_token ?? '',
        body: graphTemplate(template),
      });
      results.push({
        ...base,
        outcome: 'created',
        status: created.status ?? 'PENDING',
        error: null,
      });
    } catch (error) {
      results.push({ ...base, outcome: 'failed', status: null, error: metaMessage(error) });
    }
  }
  return results;
};

/** A guide's template as the Graph API creates it: the body with its sample, then the quick replies. */
const graphTemplate = (template: ReturnType<typeof templatesToCreate>[number]) => ({
  name: template.name,
  language: template.language,
  category: template.category,
  components: [
    {
      type: 'BODY',
      text: template.body,
      example: { body_text: [[template.example]] },
    },
    {
      type: 'BUTTONS',
      buttons: template.quick_replies.map((text) => ({ type: 'QUICK_REPLY', text })),
    },
  ],
});
