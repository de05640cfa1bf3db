import type sanitize from 'sanitize-html';

import { sanitizeHtmlLibrary } from './sanitize-html.ts';

// SVG covers are kept as SVG but rebuilt from an allow-list (issue 11 §9: a stored SVG kept its
// <script>; the sandboxing CSP stopped it, but a file saved or opened elsewhere would not be).
// Shapes, gradients, text and presentation attributes stay; scripts, event handlers, foreign
// objects, styles, images, animations and any reference outside the file go. XML is
// case-sensitive, so names are kept as written (viewBox, linearGradient).

const SVG_TAGS = [
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'symbol',
  'use',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'pattern',
];

const SVG_ATTRIBUTES = [
  'id',
  'class',
  'xmlns',
  'xmlns:xlink',
  'version',
  'viewBox',
  'preserveAspectRatio',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'd',
  'points',
  'transform',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-miterlimit',
  'opacity',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'patternUnits',
  'patternTransform',
  'clip-path',
  'clip-rule',
  'clipPathUnits',
  'mask',
  'maskUnits',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'visibility',
  'display',
  'href',
  'xlink:href',
];

/** A reference inside the file (`#id`, `url(#id)`) is kept; anything pointing elsewhere is not. */
const isLocalReference = (name: string, value: string): boolean => {
  if (name === 'href' || name === 'xlink:href') return value.trim().startsWith('#');
  const urls = [...value.matchAll(/url\(\s*['"]?([^'")]*)/gi)].map((match) => match[1] ?? '');
  return urls.every((url) => url.trim().startsWith('#'));
};

const OPTIONS: sanitize.IOptions = {
  allowedTags: SVG_TAGS,
  allowedAttributes: { '*': SVG_ATTRIBUTES },
  allowedSchemes: [],
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'foreignObject', 'textarea', 'noscript', 'iframe'],
  parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
  transformTags: {
    '*': (tagName, attribs) => ({
      tagName,
      attribs: Object.fromEntries(
        Object.entries(attribs).filter(([name, value]) => isLocalReference(name, value)),
      ),
    }),
    // A standalone SVG needs its namespace to render as an image.
    svg: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...Object.fromEntries(
          Object.entries(attribs).filter(([name, value]) => isLocalReference(name, value)),
        ),
        xmlns: 'http://www.w3.org/2000/svg',
      },
    }),
  },
};

/**
 * The SVG rebuilt from the allow-list, as UTF-8 bytes; null when no <svg> element is left. The
 * DOCTYPE goes first: its entity definitions are never expanded, and no text may precede the root.
 */
export const sanitizeSvg = (bytes: Uint8Array): Buffer | null => {
  const text = Buffer.from(bytes)
    .toString('utf8')
    .replace(/<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>/gi, '');
  const clean = sanitizeHtmlLibrary()(text, OPTIONS);
  const root = clean.indexOf('<svg');
  return root < 0 ? null : Buffer.from(clean.slice(root).trim(), 'utf8');
};
