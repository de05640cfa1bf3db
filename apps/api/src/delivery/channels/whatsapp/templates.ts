import { LOCALES } from '@ccp/schemas';

import type { Db } from '../../../db/index.ts';
import { t } from '../../../i18n/texts.ts';
import { learnersOnChannel } from '../../../learners/learners-repository.ts';
import type { ChannelSettings } from '../../channel-settings.ts';
import type { Connection } from '../../message.ts';
import { ProviderHttpError, callJson } from '../http.ts';

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

export type TemplateCheck = {
  /** The languages with an approved, well-formed template, e.g. "de, en". */
  languages: string;
  /** Per language, what is wrong with its template ("it: pending"). */
  problems: string[];
  /** The learners whose language has no usable template, by language ("it: Anna Rossi, …"). */
  gaps: string[];
};

/**
 * Fetches every language of the template `name` and checks each against `shape`; refuses (as the
 * connection's error) when no language at all is usable, since then nothing could go outside
 * the 24-hour window.
 */
export const checkTemplate = async (
  settings: ChannelSettings['whatsapp'],
  connection: Connection,
  { name, shape, db }: { name: string; shape: TemplateShape; db?: Db },
  codeOf: Parameters<typeof callJson>[0]['codeOf'],
): Promise<TemplateCheck> => {
  const account = encodeURIComponent(connection.providerIds.business_account_id ?? '');
  const { data } = await callJson<{ data: GraphTemplate[] }>({
    url: `${settings.apiUrl}/${account}/message_templates?name=${encodeURIComponent(name)}&fields=name,status,language,components`,
    token: connection.secrets.access_token ?? '',
    codeOf,
  });
  const usable = new Set<string>();
  const problems: string[] = [];
  for (const template of data.filter((item) => item.name === name)) {
    const wrong = problemsOf(template, shape);
    if (wrong.length === 0) usable.add(languageOf(template.language));
    else problems.push(`${template.language}: ${wrong.join(', ')}`);
  }
  if (usable.size === 0) {
    throw new ProviderHttpError(
      404,
      'template_not_approved',
      `template ${name} is not approved and well-formed in any language${problems.length > 0 ? ` (${problems.join('; ')})` : ''}`,
      null,
      null,
    );
  }
  const learners = db ? await learnersOnChannel(db, connection.companyUuid, 'whatsapp') : [];
  const missing = new Map<string, string[]>();
  for (const learner of learners.filter((item) => !usable.has(item.language))) {
    missing.set(learner.language, [...(missing.get(learner.language) ?? []), learner.name]);
  }
  return {
    languages: [...usable].sort().join(', '),
    problems,
    gaps: [...missing].map(([language, names]) => `${language}: ${names.join(', ')}`),
  };
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
      quick_replies: [t(language, 'server.channel.templateStart')],
    },
    {
      name: connection?.providerIds.invitation_template_name || DEFAULT_TEMPLATE_NAMES.invitation,
      language,
      category: 'UTILITY',
      body: t(language, 'server.channel.templateInvitation'),
      quick_replies: [t(language, 'server.channel.join'), t(language, 'server.channel.decline')],
    },
  ]);
