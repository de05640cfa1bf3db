import { WarningOutlined } from '@ant-design/icons';
import { CHANNEL_KEYS } from '@ccp/schemas';
import type { TChannelKey, TChannelPreviews, TLocale } from '@ccp/schemas';
import { useCustom } from '@refinedev/core';
import { Alert, Spin, Tabs } from 'antd';
import { AdaptiveCard, HostConfig } from 'adaptivecards';
import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { toLessonRequest } from './draft.ts';
import type { TLessonDraft } from './draft.ts';

// "Preview in…" (spec §2 channels): the server renders the day with the scheduler's renderer and
// answers each channel's payload; this panel draws it — the MS Teams card with the Adaptive
// Cards renderer, the others as their apps' message bubbles — and says what a channel cannot
// carry as written. Every text is drawn as text: nothing of a payload becomes HTML, but for
// Teams' markdown, escaped first and given only bold, italic, http(s) links and line breaks.

type TPayload = Record<string, unknown>;

// --- Inline formats as React nodes --------------------------------------------------------

const SAFE_HREF = /^(https?:|mailto:)/i;

const link = (href: string, text: ReactNode, key: string | number) =>
  SAFE_HREF.test(href) ? (
    <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
      {text}
    </a>
  ) : (
    <Fragment key={key}>{text}</Fragment>
  );

type TRule = { pattern: RegExp; render: (match: RegExpExecArray, key: number) => ReactNode };

/** Text with inline marks (bold, italic, links) by the given rules, line breaks kept. */
const inline = (text: string, rules: TRule[]): ReactNode[] => {
  const nodes: ReactNode[] = [];
  let rest = text;
  let key = 0;
  while (rest.length > 0) {
    let best: { match: RegExpExecArray; rule: TRule } | null = null;
    for (const rule of rules) {
      rule.pattern.lastIndex = 0;
      const match = rule.pattern.exec(rest);
      if (match && (!best || match.index < best.match.index)) best = { match, rule };
    }
    if (!best) {
      nodes.push(rest);
      break;
    }
    if (best.match.index > 0) nodes.push(rest.slice(0, best.match.index));
    nodes.push(best.rule.render(best.match, key++));
    rest = rest.slice(best.match.index + best.match[0].length);
  }
  return nodes;
};

const lines = (text: string, render: (line: string) => ReactNode[]) =>
  text.split('\n').map((line, index) => (
    <Fragment key={index}>
      {index > 0 && <br />}
      {render(line)}
    </Fragment>
  ));

const SLACK_RULES: TRule[] = [
  { pattern: /<([^|>]+)\|([^>]+)>/, render: (m, k) => link(m[1]!, m[2], k) },
  { pattern: /\*([^*\n]+)\*/, render: (m, k) => <strong key={k}>{m[1]}</strong> },
  { pattern: /_([^_\n]+)_/, render: (m, k) => <em key={k}>{m[1]}</em> },
];
const WHATSAPP_RULES: TRule[] = [
  { pattern: /\*([^*\n]+)\*/, render: (m, k) => <strong key={k}>{m[1]}</strong> },
  { pattern: /_([^_\n]+)_/, render: (m, k) => <em key={k}>{m[1]}</em> },
];
const MARKDOWN_RULES: TRule[] = [
  { pattern: /\[([^\]]+)\]\(([^)\s]+)\)/, render: (m, k) => link(m[2]!, m[1], k) },
  { pattern: /\*\*([^*\n]+)\*\*/, render: (m, k) => <strong key={k}>{m[1]}</strong> },
  { pattern: /_([^_\n]+)_/, render: (m, k) => <em key={k}>{m[1]}</em> },
];

/** Google Chat's HTML subset (b, i, a, br) as React nodes; any other markup shows as its text. */
const chatHtml = (html: string): ReactNode[] => {
  const doc = new DOMParser().parseFromString(`<div>${html}</div>`, 'text/html');
  let key = 0;
  const walk = (node: Node): ReactNode[] =>
    Array.from(node.childNodes).map((child) => {
      if (child.nodeType === Node.TEXT_NODE) return child.textContent;
      if (child.nodeType !== Node.ELEMENT_NODE) return null;
      const element = child as Element;
      const tag = element.tagName.toLowerCase();
      const inner = walk(element);
      if (tag === 'br') return <br key={key++} />;
      if (tag === 'b' || tag === 'strong') return <strong key={key++}>{inner}</strong>;
      if (tag === 'i' || tag === 'em') return <em key={key++}>{inner}</em>;
      if (tag === 'a') return link(element.getAttribute('href') ?? '', inner, key++);
      return <Fragment key={key++}>{inner}</Fragment>;
    });
  return walk(doc.body.firstChild ?? doc.body);
};

// --- One renderer per channel ----------------------------------------------------------------

/** Teams' markdown in a TextBlock (bold, italic, http(s) links, line breaks) as escaped HTML. */
const teamsMarkdownHtml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(
      /\[([^\]]+)\]\((https?:[^)\s]+)\)/g,
      '<a href="$2" target="_blank" rel="noopener noreferrer nofollow">$1</a>',
    )
    .replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])_([^_\n]+)_(?=[\s).,;:!?]|$)/g, '$1<em>$2</em>')
    .replace(/\n/g, '<br>');

// Teams renders a TextBlock's markdown; the Adaptive Cards library leaves it to its host.
AdaptiveCard.onProcessMarkdown = (text, result) => {
  result.outputHtml = teamsMarkdownHtml(text);
  result.didProcess = true;
};

const TEAMS_HOST = new HostConfig({
  fontFamily: 'Segoe UI, system-ui, sans-serif',
  // Teams shows at most 6 actions on a card.
  actions: { maxActions: 6, buttonSpacing: 8, actionsOrientation: 'vertical' },
});

const TeamsCard = ({ payload }: { payload: TPayload }) => {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const attachments = payload.attachments as { content: object }[] | undefined;
    const target = host.current;
    if (!target || !attachments?.[0]) return;
    const card = new AdaptiveCard();
    card.hostConfig = TEAMS_HOST;
    card.parse(attachments[0].content);
    const element = card.render();
    target.replaceChildren();
    if (element) target.appendChild(element);
  }, [payload]);
  return <div className="preview-teams" ref={host} data-testid="teams-card" />;
};

type TSlackBlock = {
  type: string;
  text?: { text: string };
  elements?: { type: string; text: string | { text: string } }[];
};

const SlackMessage = ({ payload }: { payload: TPayload }) => {
  const blocks = (payload.blocks ?? []) as TSlackBlock[];
  return (
    <div className="preview-bubble preview-slack">
      {blocks.map((block, index) => {
        if (block.type === 'header') return <h4 key={index}>{block.text?.text}</h4>;
        if (block.type === 'divider') return <hr key={index} />;
        if (block.type === 'context') {
          return (
            <p key={index} className="preview-context">
              {block.elements?.map((element) =>
                typeof element.text === 'string' ? inline(element.text, SLACK_RULES) : null,
              )}
            </p>
          );
        }
        if (block.type === 'actions') {
          return (
            <div key={index} className="preview-buttons">
              {block.elements?.map((element, button) => (
                <span key={button} className="preview-chip">
                  {typeof element.text === 'string' ? element.text : element.text.text}
                </span>
              ))}
            </div>
          );
        }
        return (
          <p key={index}>{lines(block.text?.text ?? '', (line) => inline(line, SLACK_RULES))}</p>
        );
      })}
    </div>
  );
};

/** A lesson sent as several messages: the first payload, then those in `continued`. */
const partsOf = (payload: TPayload): TPayload[] => [
  payload,
  ...((payload.continued as TPayload[] | undefined) ?? []),
];

type TWhatsAppPart = {
  type?: string;
  text?: { body?: string };
  interactive?: {
    type?: string;
    body?: { text?: string };
    action?: {
      button?: string;
      buttons?: { reply?: { title?: string } }[];
      sections?: { rows?: { title?: string; description?: string }[] }[];
    };
  };
};

/** One WhatsApp message: a text, or the question with its reply buttons or list. */
const WhatsAppBubble = ({ part }: { part: TWhatsAppPart }) => {
  const interactive = part.interactive;
  const text = part.type === 'text' ? (part.text?.body ?? '') : (interactive?.body?.text ?? '');
  const buttons = interactive?.action?.buttons ?? [];
  const rows = interactive?.action?.sections?.flatMap((section) => section.rows ?? []) ?? [];
  return (
    <>
      <div className="preview-bubble preview-whatsapp-bubble">
        <p>{lines(text, (line) => inline(line, WHATSAPP_RULES))}</p>
      </div>
      {buttons.length > 0 && (
        <div className="preview-replies">
          {buttons.map((button, index) => (
            <span key={index} className="preview-reply">
              {button.reply?.title}
            </span>
          ))}
        </div>
      )}
      {interactive?.type === 'list' && (
        <div className="preview-replies">
          <span className="preview-reply">{interactive.action?.button}</span>
          <ul className="preview-list">
            {rows.map((row, index) => (
              <li key={index}>
                <strong>{row.title}</strong> {row.description}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
};

const WhatsAppMessage = ({ payload }: { payload: TPayload }) => (
  <div className="preview-whatsapp">
    {partsOf(payload).map((part, index) => (
      <WhatsAppBubble key={index} part={part as TWhatsAppPart} />
    ))}
  </div>
);

const WebexMessage = ({ payload }: { payload: TPayload }) => (
  <>
    {partsOf(payload).map((part, index) => {
      const markdown = typeof part.markdown === 'string' ? part.markdown : '';
      return (
        <div key={index} className="preview-bubble preview-webex">
          {markdown.split('\n').map((line, lineIndex) => {
            if (line.startsWith('## '))
              return <h4 key={lineIndex}>{inline(line.slice(3), MARKDOWN_RULES)}</h4>;
            if (line === '---') return <hr key={lineIndex} />;
            if (line.trim() === '') return <div key={lineIndex} className="preview-gap" />;
            return <p key={lineIndex}>{inline(line, MARKDOWN_RULES)}</p>;
          })}
        </div>
      );
    })}
  </>
);

type TChatWidget = {
  textParagraph?: { text: string };
  buttonList?: { buttons: { text: string }[] };
};
type TChatCard = {
  header?: { title?: string; subtitle?: string };
  sections?: { header?: string; widgets?: TChatWidget[] }[];
};

const GoogleChatCard = ({ payload }: { payload: TPayload }) => {
  const card = (payload.cardsV2 as { card: TChatCard }[] | undefined)?.[0]?.card ?? {};
  return (
    <div className="preview-bubble preview-chat">
      <div className="preview-chat-header">
        <strong>{card.header?.title}</strong>
        <span className="preview-context">{card.header?.subtitle}</span>
      </div>
      {card.sections?.map((section, index) => (
        <section key={index} className="preview-chat-section">
          {section.header && <h5>{chatHtml(section.header)}</h5>}
          {section.widgets?.map((widget, widgetIndex) =>
            widget.textParagraph ? (
              <p key={widgetIndex}>{chatHtml(widget.textParagraph.text)}</p>
            ) : (
              <div key={widgetIndex} className="preview-buttons">
                {widget.buttonList?.buttons.map((button, buttonIndex) => (
                  <span key={buttonIndex} className="preview-chip">
                    {button.text}
                  </span>
                ))}
              </div>
            ),
          )}
        </section>
      ))}
    </div>
  );
};

const RENDERERS: Record<TChannelKey, (props: { payload: TPayload }) => ReactNode> = {
  'ms-teams': TeamsCard,
  slack: SlackMessage,
  whatsapp: WhatsAppMessage,
  webex: WebexMessage,
  'google-chat': GoogleChatCard,
};

type Props = {
  courseUuid: string;
  day: number;
  language: TLocale;
  /** The lesson as edited; previewed as it would be sent. */
  lesson: TLessonDraft;
  /** The course's channel first, when one is chosen. */
  channel?: TChannelKey | null;
};

export const ChannelPreview = ({ courseUuid, day, language, lesson, channel }: Props) => {
  const { t } = useTranslation();
  const classroomMeta = useClassroomMeta();
  const payload = useMemo(
    () => ({
      day,
      language,
      lesson: toLessonRequest(lesson, t('validation.answerResponseDefault')),
    }),
    [day, language, lesson, t],
  );
  const { query } = useCustom<TChannelPreviews>({
    url: `/api/v1/classrooms/{classroomUuid}/courses/${courseUuid}/channel-preview`,
    method: 'post',
    config: { payload },
    meta: classroomMeta,
  });
  const [active, setActive] = useState<TChannelKey>(channel ?? 'ms-teams');
  const previews = query.data?.data.previews ?? [];
  if (query.isLoading) return <Spin />;
  if (query.isError)
    return <Alert type="error" showIcon message={t('courses.wizard.preview.failed')} />;
  return (
    <Tabs
      activeKey={active}
      onChange={(key) => setActive(key as TChannelKey)}
      items={CHANNEL_KEYS.map((key) => {
        const preview = previews.find((entry) => entry.channel === key);
        const Renderer = RENDERERS[key];
        const warned = (preview?.issues.length ?? 0) > 0;
        return {
          key,
          label: (
            <span className="preview-tab">
              {t(`courses.wizard.channels.${key}`)}
              {warned && (
                <WarningOutlined
                  className="preview-warning-icon"
                  aria-label={t('courses.wizard.preview.hasIssues')}
                />
              )}
            </span>
          ),
          children: preview ? (
            <div className="preview-panel">
              {preview.issues.map((issue) => (
                <Alert
                  key={`${issue.code}:${issue.message}`}
                  type="warning"
                  showIcon
                  message={issue.message}
                  className="preview-issue"
                />
              ))}
              <Renderer payload={preview.payload} />
            </div>
          ) : null,
        };
      })}
    />
  );
};
