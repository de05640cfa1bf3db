// Phone rules of spec §5, as pure functions the web form, the CLI import and the API share.

/** A plus followed by 6 to 15 digits (E.164 allows at most 15). */
export const PHONE_PATTERN = /^\+\d{6,15}$/;

// Separators people type or paste: spaces, dashes, dots, parentheses.
const SEPARATORS = /[\s\-.()]/g;

const clean = (raw: string): string => raw.replace(SEPARATORS, '');

/** True when a normalised phone is a plus and 6 to 15 digits. */
export const isValidPhone = (phone: string): boolean => PHONE_PATTERN.test(phone);

/**
 * On create a phone is sent only when longer than one character (a lone `+` left by the phone
 * input means "no phone"): answers the value without separators, or undefined when one
 * character or fewer remains. `isValidPhone` must then accept what it answers.
 */
export const normalizePhoneForCreate = (raw: string | null | undefined): string | undefined => {
  const cleaned = clean(raw ?? '');
  return cleaned.length > 1 ? cleaned : undefined;
};

/**
 * On update a phone of one character or fewer is sent as null (it clears the stored phone);
 * longer values are cleaned as on create.
 */
export const normalizePhoneForUpdate = (raw: string | null | undefined): string | null =>
  normalizePhoneForCreate(raw) ?? null;

/** A fetched phone lacking a leading plus gets one; an empty one is null. */
export const normalizePhoneFromServer = (raw: string | null | undefined): string | null => {
  const trimmed = raw?.trim() ?? '';
  if (trimmed === '') return null;
  return trimmed.startsWith('+') ? trimmed : `+${trimmed}`;
};
