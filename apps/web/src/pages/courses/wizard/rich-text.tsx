import { EditorState } from '@tiptap/pm/state';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { Button, Input, Popover, Tooltip } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { EditorFrame } from './rich-text-field.tsx';
import type { TEditorTool } from './rich-text-field.tsx';

// The lesson body editor (TipTap over ProseMirror; docs/decisions.md says why): only what the
// five channels can render — bold, italic, links, bullet and numbered lists, paragraphs and
// line breaks. Anything else pasted (Word, Google Docs) is dropped by the editor's schema, so the
// HTML it hands on holds only those tags. Its own chunk: it loads when the field is opened
// (rich-text-field.tsx).

/** A URL's start, the same in every language. */
const URL_PLACEHOLDER = 'https://';

/** How the creator opened the field: where they clicked, and what they typed while it loaded. */
export type TEditorOpening = {
  at: { left: number; top: number } | null;
  typed: () => string;
};

export type TRichTextProps = {
  value?: string;
  onChange?: (html: string) => void;
  id?: string;
  'aria-invalid'?: boolean;
  /** The accessible name of the editable area. */
  label: string;
  /** Which text this is (a day and language): a new one starts a new undo history. */
  documentKey?: string;
  /** Opened by the creator: focus where they clicked and type what they typed meanwhile. */
  opening?: TEditorOpening;
};

/** `Form.Item` control: HTML in, HTML out, with the live count of visible characters. */
export const RichTextInput = ({
  value = '',
  onChange,
  id,
  label,
  documentKey,
  opening,
  ...rest
}: TRichTextProps) => {
  const { t } = useTranslation();
  const [linkOpen, setLinkOpen] = useState(false);
  const [href, setHref] = useState('');
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        blockquote: false,
        code: false,
        codeBlock: false,
        heading: false,
        horizontalRule: false,
        strike: false,
        underline: false,
        dropcursor: false,
        link: {
          defaultProtocol: 'https',
          openOnClick: false,
          autolink: true,
          isAllowedUri: (url, { defaultValidate }) =>
            defaultValidate(url) && /^(https?:|mailto:)/i.test(url),
          HTMLAttributes: { rel: 'noopener noreferrer nofollow', target: null },
        },
      }),
    ],
    content: value,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        class: 'rich-text-content',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        ...(id ? { id } : {}),
        ...(rest['aria-invalid'] ? { 'aria-invalid': 'true' } : {}),
      },
    },
    onUpdate: ({ editor: current }) => {
      onChange?.(current.isEmpty ? '' : current.getHTML());
    },
  });
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      link: current.isActive('link'),
      bullet: current.isActive('bulletList'),
      ordered: current.isActive('orderedList'),
    }),
  });

  // A value set from outside (another day, a translation) replaces the content; the editor is
  // kept (creating one per day was a good part of a day switch). Undo must not reach back into
  // the text shown before, so a text from outside, or another lesson's, starts a fresh state
  // without history (the value and the lesson can change in two renders, either first).
  const shownDocument = useRef(documentKey);
  useEffect(() => {
    // TipTap destroys and recreates its editor when the component remounts (Suspense, a form
    // reset): a destroyed one has no schema left, and the new one starts from the value anyway.
    if (editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    const replaced = value !== current;
    if (replaced) editor.commands.setContent(value, { emitUpdate: false });
    if (replaced || shownDocument.current !== documentKey) {
      shownDocument.current = documentKey;
      const { doc, plugins, selection } = editor.state;
      editor.view.updateState(EditorState.create({ doc, plugins, selection }));
    }
  }, [editor, value, documentKey]);

  // Once, when the creator's click or key has opened the editor in place of the drawn text.
  useLayoutEffect(() => {
    if (!opening || editor.isDestroyed) return;
    const clicked = opening.at ? editor.view.posAtCoords(opening.at)?.pos : undefined;
    // Focused now (TipTap's focus command waits for a frame, and a key typed meanwhile would be
    // lost: the drawn field that held the focus is gone), the caret where the creator clicked.
    editor.view.focus();
    editor.commands.focus(clicked ?? 'end');
    const typed = opening.typed();
    // As text: insertContent would read it as HTML and drop a trailing space.
    if (typed) editor.view.dispatch(editor.state.tr.insertText(typed));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const applyLink = () => {
    const url = href.trim();
    const chain = editor.chain().focus().extendMarkRange('link');
    if (url) chain.setLink({ href: url }).run();
    else chain.unsetLink().run();
    setLinkOpen(false);
  };

  const runs: Record<Exclude<TEditorTool, 'link'>, [boolean, () => void]> = {
    bold: [active.bold, () => editor.chain().focus().toggleBold().run()],
    italic: [active.italic, () => editor.chain().focus().toggleItalic().run()],
    bulletList: [active.bullet, () => editor.chain().focus().toggleBulletList().run()],
    orderedList: [active.ordered, () => editor.chain().focus().toggleOrderedList().run()],
  };
  const tool = (key: TEditorTool, icon: ReactNode, pressed: boolean, run: () => void) => (
    <Tooltip title={t(`courses.wizard.editor.${key}`)} key={key}>
      <Button
        type={pressed ? 'primary' : 'text'}
        size="small"
        icon={icon}
        aria-label={t(`courses.wizard.editor.${key}`)}
        aria-pressed={pressed}
        onMouseDown={(event) => event.preventDefault()}
        onClick={run}
      />
    </Tooltip>
  );
  const linkTool = (icon: ReactNode) => (
    <Popover
      key="link"
      open={linkOpen}
      onOpenChange={(open) => {
        setLinkOpen(open);
        if (open) setHref(String(editor.getAttributes('link').href ?? ''));
      }}
      trigger="click"
      content={
        <div className="rich-text-link">
          <Input
            autoFocus
            value={href}
            placeholder={URL_PLACEHOLDER}
            aria-label={t('courses.wizard.editor.linkUrl')}
            onChange={(event) => setHref(event.target.value)}
            onPressEnter={applyLink}
          />
          <Button type="primary" onClick={applyLink}>
            {t('courses.wizard.editor.linkApply')}
          </Button>
        </div>
      }
    >
      <span>{tool('link', icon, active.link, () => setLinkOpen(true))}</span>
    </Popover>
  );

  return (
    <EditorFrame
      html={value}
      invalid={!!rest['aria-invalid']}
      tool={(key, icon) =>
        key === 'link' ? linkTool(icon) : tool(key, icon, runs[key][0], runs[key][1])
      }
    >
      <EditorContent editor={editor} />
    </EditorFrame>
  );
};
