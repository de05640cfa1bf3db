// A CommonJS package loaded with import() shows its exports differently in the two ways the API
// runs: Node's loader (tsx, vitest) names them on the namespace and also gives `default`, while
// the esbuild bundle `npm start` runs gives them only as `default` (named ones are undefined:
// "Client is not a constructor" for @slack/web-api, issue 25). Reading `default` first works in both.

/** The `module.exports` of a CommonJS package from its dynamic import's namespace. */
export const commonJsExports = <T extends object>(namespace: T): T =>
  (namespace as T & { default?: T }).default ?? namespace;
