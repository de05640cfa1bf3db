// The sign-in screen's texts of one language (vite.config.ts, `bootTexts`). A module Vite builds:
// its default export is the shape the plugin writes.
declare module 'virtual:boot-texts/*' {
  const texts: Record<string, unknown>;
  // eslint-disable-next-line no-restricted-syntax -- the plugin's module has one default export
  export default texts;
}
