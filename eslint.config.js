// One flat config for every workspace: type-checked rules, module boundaries, no default exports.
import js from '@eslint/js';
import vitest from '@vitest/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Dependency direction: schemas <- data-provider <- apps. No package imports an app.
const boundary = (group, message) => ({ group, message });
const appImports = boundary(
  ['@ccp/api', '@ccp/api/*', '@ccp/web', '@ccp/web/*', '@ccp/cli', '@ccp/cli/*'],
  'Packages and apps never import an app.',
);
const deepImports = boundary(
  ['@ccp/*/src/*'],
  'Import a workspace through its entry point, not its internals.',
);

export default defineConfig(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', '**/coverage/**', 'bench/out/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      // Fastify plugins and handlers are async by contract, even those that only register routes.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
        { selector: 'TSEnumDeclaration', message: 'Use string-literal unions or z.enum.' },
      ],
    },
  },
  {
    files: ['packages/schemas/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            appImports,
            deepImports,
            boundary(
              ['@ccp/data-provider', '@ccp/data-provider/*'],
              'schemas depends on zod only.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['packages/data-provider/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            appImports,
            deepImports,
            boundary(
              ['react', 'react-dom', 'antd'],
              'The data provider stays free of React so the CLI can reuse it.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['apps/**/*.ts', 'apps/**/*.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [appImports, deepImports] }] },
  },
  {
    // Routes only wire HTTP to the modules beside them: persistence lives in repositories outside
    // `routes/` (e.g. src/learners/learners-repository.ts), so nothing else imports from a route.
    // app.ts registers the route plugins.
    files: ['apps/api/**/*.ts'],
    ignores: ['apps/api/src/routes/**', 'apps/api/src/app.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            appImports,
            deepImports,
            boundary(
              ['**/routes/**', './routes/**', '../routes/**'],
              'Only routes/ and app.ts import from routes/: move what you need out to a repository or a domain module.',
            ),
          ],
        },
      ],
    },
  },
  {
    // Cross-app tests start the API in-process and drive the clients against it.
    files: ['tests/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [deepImports] }] },
  },
  {
    files: ['**/*.test.ts', '**/test/**/*.ts'],
    plugins: { vitest },
    rules: {
      ...vitest.configs.recommended.rules,
      'vitest/no-focused-tests': 'error',
      // Tests poke at parsed JSON bodies; typing every response would add noise, not safety.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // Module augmentation (declare module 'fastify') needs interfaces.
    files: ['apps/api/src/context.ts'],
    rules: { '@typescript-eslint/consistent-type-definitions': 'off' },
  },
  {
    files: ['**/*.config.ts', '**/*.config.js', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The web app runs in browsers, under React's rules of hooks (and the React Compiler's checks).
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: reactHooks.configs.flat.recommended.rules,
  },
  prettier,
);
