import type sanitize from 'sanitize-html';

import { sanitizeHtmlLibrary } from './sanitize-html.ts';

// The one allow-list for HTML the product stores (lesson `topic_content`), whatever wrote it: a
// creator's save, the AI transformer or translator, a clone. Formatting tags only; a link keeps an
// http(s) or mailto href and nothing else. Scripts, styles, frames, images, event handlers and
// every other attribute are dropped; any other `<` ends up escaped text. Issue 11 §5: lessons
// saved by hand came back exactly as sent, `<img onerror>` and `<script>` included.

export const LESSON_HTML_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'sub',
  'sup',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'a',
] as const;

const OPTIONS: sanitize.IOptions = {
  allowedTags: [...LESSON_HTML_TAGS],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Dropped tags keep their text, except these, whose content is code or markup, not text.
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'template',
    'title',
    'svg',
    'math',
  ],
};

/** Lesson HTML reduced to the allow-list; idempotent, so sanitising twice changes nothing. */
export const sanitizeHtml = (input: string): string => sanitizeHtmlLibrary()(input, OPTIONS).trim();
