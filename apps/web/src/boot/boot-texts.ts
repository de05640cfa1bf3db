// The texts the sign-in screen shows before anything else loads (main.tsx: a signed-out visit to
// /login): these keys of each language's locales/*.json, built into a chunk of their own by
// vite.config.ts (`virtual:boot-texts/<language>`). The whole language (88 KB of English and
// growing) follows once the user types, before any message can need it. A test checks that
// every text the sign-in screen's modules name is here.
export const BOOT_TEXT_KEYS = [
  'app',
  'layout',
  'pages.login',
  'buttons',
  'modals.error',
  'validation.offline',
  // The plain form's "This field is required." (components/plain/auth-card.tsx).
  'validation.required',
  'validation.otpInvalid',
  'validation.recoveryCodeInvalid',
] as const;

type Texts = Record<string, unknown>;

const isTexts = (value: unknown): value is Texts =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The part of `texts` under `keys` (dotted paths), in the same shape. */
export const pickTexts = (texts: Texts, keys: readonly string[]): Texts => {
  const picked: Texts = {};
  for (const key of keys) {
    const parts = key.split('.');
    let source: unknown = texts;
    for (const part of parts) source = isTexts(source) ? source[part] : undefined;
    if (source === undefined) throw new Error(`No text "${key}" in the locale.`);
    let target = picked;
    for (const part of parts.slice(0, -1)) {
      const next = isTexts(target[part]) ? target[part] : {};
      target[part] = next;
      target = next;
    }
    target[parts.at(-1)!] = source;
  }
  return picked;
};
