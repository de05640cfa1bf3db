import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { TEXT_LIMITS, stripHtml } from '@ccp/schemas';
import { Button } from 'antd';
import { Fragment, createElement, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { loadChunk } from '../../../lib/chunk-load.ts';
import { formatNumber } from '../../../lib/format.ts';
import type { RichTextInput, TEditorOpening, TRichTextProps } from './rich-text.tsx';

// The topic content field. The editor (TipTap, ~125 KB gzip) loads when the creator opens the
// field — a click, a tab into it, a key — not with the Content step: until then the lesson's text
// is drawn as the editor will show it, from a parse that keeps only the tags the editor allows.
// Once open, the editor stays for every day and language (the lesson form is kept mounted).

let loadedEditor: typeof RichTextInput | null = null;
const loadEditor = async () => {
  const module = await loadChunk(() => import('./rich-text.tsx'));
  loadedEditor = module.RichTextInput;
  return loadedEditor;
};
/** Starts loading the editor (a pointer over the field): it is likely to be opened. */
const prefetchEditor = () => void loadEditor().catch(() => undefined);

/** Tags the editor's schema keeps (rich-text.tsx): the rest is drawn as its text. */
const ALLOWED_TAGS = new Set(['p', 'br', 'strong', 'b', 'em', 'i', 'ul', 'ol', 'li', 'a']);
const SAFE_HREF = /^(https?:|mailto:)/i;

/** The lesson's HTML as React elements, without attributes other than a safe link's href. */
const drawHtml = (html: string): ReactNode => {
  if (!html) return null;
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const draw = (node: Node, key: number): ReactNode => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (!(node instanceof Element)) return null;
    const children = [...node.childNodes].map(draw);
    const tag = node.tagName.toLowerCase();
    if (!ALLOWED_TAGS.has(tag)) return <Fragment key={key}>{children}</Fragment>;
    if (tag === 'br') return <br key={key} />;
    if (tag === 'a') {
      const href = node.getAttribute('href') ?? '';
      return (
        <a key={key} href={SAFE_HREF.test(href) ? href : undefined} rel="noopener noreferrer">
          {children}
        </a>
      );
    }
    return createElement(tag, { key }, ...children);
  };
  return [...body.childNodes].map(draw);
};

/** The formatting the five channels can render, in the toolbar's order. */
const EDITOR_TOOLS = [
  ['bold', <BoldOutlined key="bold" />],
  ['italic', <ItalicOutlined key="italic" />],
  ['link', <LinkOutlined key="link" />],
  ['bulletList', <UnorderedListOutlined key="bulletList" />],
  ['orderedList', <OrderedListOutlined key="orderedList" />],
] as const;
export type TEditorTool = (typeof EDITOR_TOOLS)[number][0];

/**
 * The field around the text, the same closed and open: the toolbar (each tool drawn by `tool`),
 * the text, and the live count of visible characters against the limit.
 */
export const EditorFrame = ({
  html,
  invalid,
  busy = false,
  tool,
  onPointerEnter,
  children,
}: {
  html: string;
  invalid: boolean;
  busy?: boolean;
  tool: (key: TEditorTool, icon: ReactNode) => ReactNode;
  onPointerEnter?: () => void;
  children: ReactNode;
}) => {
  const { t } = useTranslation();
  const length = [...stripHtml(html)].length;
  const over = length > TEXT_LIMITS.topicContent;
  return (
    <div
      className={`rich-text${invalid ? ' rich-text-invalid' : ''}`}
      aria-busy={busy || undefined}
      onPointerEnter={onPointerEnter}
    >
      <div
        className="rich-text-toolbar"
        role="toolbar"
        aria-label={t('courses.wizard.editor.toolbar')}
      >
        {EDITOR_TOOLS.map(([key, icon]) => tool(key, icon))}
      </div>
      {children}
      <div className={`rich-text-count${over ? ' rich-text-count-over' : ''}`} aria-live="polite">
        {t('courses.wizard.editor.count', {
          shown: formatNumber(length),
          max: formatNumber(TEXT_LIMITS.topicContent),
        })}
      </div>
    </div>
  );
};

type Props = Omit<TRichTextProps, 'opening' | 'documentKey'> & { documentKey: string };

/** The text as the editor shows it, with its toolbar and counter; any use of it opens the editor. */
const ClosedEditor = ({
  value = '',
  id,
  label,
  invalid,
  busy,
  onOpen,
  onType,
}: {
  value?: string;
  id?: string;
  label: string;
  invalid: boolean;
  busy: boolean;
  onOpen: (at: TEditorOpening['at']) => void;
  onType: (text: string) => void;
}) => {
  const { t } = useTranslation();
  const drawn = useMemo(() => drawHtml(value), [value]);
  const onKeyDown = (event: KeyboardEvent) => {
    // Keys typed before the editor is there are kept and typed into it once it is.
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      onType(event.key);
      event.preventDefault();
    }
    onOpen(null);
  };
  const onPointerDown = (event: PointerEvent) =>
    onOpen({ left: event.clientX, top: event.clientY });
  return (
    <EditorFrame
      html={value}
      invalid={invalid}
      busy={busy}
      onPointerEnter={prefetchEditor}
      tool={(key, icon) => (
        <Button
          key={key}
          type="text"
          size="small"
          icon={icon}
          aria-label={t(`courses.wizard.editor.${key}`)}
          onClick={() => onOpen(null)}
        />
      )}
    >
      <div
        className="rich-text-content rich-text-closed"
        role="textbox"
        aria-multiline="true"
        aria-label={label}
        aria-invalid={invalid || undefined}
        id={id}
        tabIndex={0}
        onFocus={() => onOpen(null)}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
        // A link in the drawn text is text to edit, as in the editor, not a way off the page.
        onClick={(event) => event.preventDefault()}
      >
        {drawn}
      </div>
    </EditorFrame>
  );
};

/** `Form.Item` control for the topic content: HTML in, HTML out. */
export const RichTextField = ({ value, onChange, id, label, documentKey, ...rest }: Props) => {
  const [Editor, setEditor] = useState(() => loadedEditor);
  const [opening, setOpening] = useState<TEditorOpening | null>(null);
  const [, setFailure] = useState<unknown>(null);
  // The text typed while the editor loads (the closed field stays focused meanwhile).
  const typed = useRef('');
  const invalid = !!rest['aria-invalid'];

  const open = (at: TEditorOpening['at']) => {
    if (opening) return;
    setOpening({ at, typed: () => typed.current });
    if (Editor) return;
    loadEditor().then(
      (loaded) => setEditor(() => loaded),
      // To the page's error boundary (a lost network, a chunk gone after a redeploy).
      (error: unknown) =>
        setFailure(() => {
          throw error;
        }),
    );
  };

  if (!Editor || !opening) {
    return (
      <ClosedEditor
        value={value}
        id={id}
        label={label}
        invalid={invalid}
        busy={opening !== null}
        onOpen={open}
        onType={(key) => {
          typed.current += key;
        }}
      />
    );
  }
  return (
    <Editor
      value={value}
      onChange={onChange}
      id={id}
      label={label}
      documentKey={documentKey}
      aria-invalid={invalid}
      opening={opening}
    />
  );
};
