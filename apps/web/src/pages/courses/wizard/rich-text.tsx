import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { TEXT_LIMITS, stripHtml } from '@ccp/schemas';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { Button, Input, Popover, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { formatNumber } from '../../../lib/format.ts';

// The lesson body editor (TipTap over ProseMirror; docs/decisions.md says why): only what the
// five channels can render — bold, italic, links, bullet and numbered lists, paragraphs and
// line breaks. Anything else pasted (Word, Google Docs) is dropped by the editor's schema, so the
// HTML it hands on holds only those tags. Its own chunk: it loads when the Content step opens.

/** A URL's start, the same in every language. */
const URL_PLACEHOLDER = 'https://';

const visibleLength = (html: string) => [...stripHtml(html)].length;

type Props = {
  value?: string;
  onChange?: (html: string) => void;
  id?: string;
  'aria-invalid'?: boolean;
  /** The accessible name of the editable area. */
  label: string;
};

/** `Form.Item` control: HTML in, HTML out, with the live count of visible characters. */
export const RichTextInput = ({ value = '', onChange, id, label, ...rest }: Props) => {
  const { t } = useTranslation();
  const length = visibleLength(value);
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

  // A value set from outside (a translation, a reset) replaces the content.
  useEffect(() => {
    // TipTap destroys and recreates its editor when the component remounts (Suspense, a form
    // reset): a destroyed one has no schema left, and the new one starts from the value anyway.
    if (editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if (value !== current) {
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, value]);

  const applyLink = () => {
    const url = href.trim();
    const chain = editor.chain().focus().extendMarkRange('link');
    if (url) chain.setLink({ href: url }).run();
    else chain.unsetLink().run();
    setLinkOpen(false);
  };

  const tool = (key: string, icon: React.ReactNode, pressed: boolean, run: () => void) => (
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

  const over = length > TEXT_LIMITS.topicContent;
  return (
    <div className={`rich-text${rest['aria-invalid'] ? ' rich-text-invalid' : ''}`}>
      <div
        className="rich-text-toolbar"
        role="toolbar"
        aria-label={t('courses.wizard.editor.toolbar')}
      >
        {tool('bold', <BoldOutlined />, active.bold, () =>
          editor.chain().focus().toggleBold().run(),
        )}
        {tool('italic', <ItalicOutlined />, active.italic, () =>
          editor.chain().focus().toggleItalic().run(),
        )}
        <Popover
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
          <span>{tool('link', <LinkOutlined />, active.link, () => setLinkOpen(true))}</span>
        </Popover>
        {tool('bulletList', <UnorderedListOutlined />, active.bullet, () =>
          editor.chain().focus().toggleBulletList().run(),
        )}
        {tool('orderedList', <OrderedListOutlined />, active.ordered, () =>
          editor.chain().focus().toggleOrderedList().run(),
        )}
      </div>
      <EditorContent editor={editor} />
      <div className={`rich-text-count${over ? ' rich-text-count-over' : ''}`} aria-live="polite">
        {t('courses.wizard.editor.count', {
          shown: formatNumber(length),
          max: formatNumber(TEXT_LIMITS.topicContent),
        })}
      </div>
    </div>
  );
};
