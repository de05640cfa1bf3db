// Text helpers behind the course rules of spec §5: HTML-aware length, character counting and
// the "similar answers" comparison.

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith('#')) {
      const hex = body[1] === 'x' || body[1] === 'X';
      const code = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : entity;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });

/**
 * The text a reader sees in lesson HTML: tags (and script/style bodies) removed, entities
 * decoded, surrounding whitespace trimmed. topic_content is required and limited on this text.
 */
export const stripHtml = (html: string): string =>
  decodeEntities(
    html
      .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<\/?[a-z][^>]*>/gi, ''),
  ).trim();

/** Characters as a reader counts them (code points, so an emoji is one), as Laravel's max does. */
export const charCount = (text: string): number => [...text].length;

/** True when the text has something other than whitespace. */
export const isPresent = (text: string): boolean => text.trim().length > 0;

/**
 * The form two answers are compared in: accents and punctuation stripped, lowercased,
 * whitespace collapsed and trimmed. A text made only of punctuation keeps its punctuation,
 * so "?" and "!" are not taken for the same answer.
 */
export const normalizeAnswer = (text: string): string => {
  const collapse = (value: string) => value.replace(/\s+/g, ' ').trim();
  const base = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return collapse(base.replace(/\p{P}/gu, '')) || collapse(base);
};

/** Two answers are similar (spec §5: they must not be) when their normalized forms are equal. */
export const areAnswersSimilar = (a: string, b: string): boolean =>
  normalizeAnswer(a) === normalizeAnswer(b);
