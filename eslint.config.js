// ESLint flat config: typescript-eslint strict + stylistic (type-checked), with the project's
// safety rules expressed as lint errors that name the safe helper to use instead.
import js from '@eslint/js';
import n from 'eslint-plugin-n';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import unicorn from 'eslint-plugin-unicorn';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Modules the pure engine must never import: it reaches I/O only through ports. */
const ENGINE_FORBIDDEN_IMPORTS = [
  'fastify',
  'better-sqlite3',
  'pg',
  'redis',
  'undici',
  'commander',
  'pino',
  'node:fs',
  'node:fs/promises',
  'node:net',
  'node:http',
  'node:https',
  'node:dns',
  'node:child_process',
];

/** `no-restricted-syntax` selectors. Flat config replaces a rule's options as a whole, so every
 * block that sets the rule lists all the selectors that apply to its files. */
const NO_RAW_FETCH = {
  selector: "CallExpression[callee.name='fetch']",
  message: 'Outbound HTTP goes through the SSRF-safe createHttpClient() from src/net/.',
};
const NO_SECRET_EQUALITY = {
  // Presence checks (`=== null`, `=== undefined`) compare no secret bytes and are allowed.
  selector:
    "BinaryExpression[operator=/^[!=]==?$/]:not([right.raw='null']):not([right.name='undefined']) > Identifier[name=/(secret|apiKey|keyHash|token)$/i]",
  message: 'Compare secrets with timingSafeEqual (see src/access/api-key.ts), never ===.',
};
/** `no-restricted-imports` entries. The same replace-as-a-whole rule applies: a block that sets
 * `no-restricted-imports` for files already covered by another such block must list both. */
const NO_UNDICI_PATH = {
  name: 'undici',
  message: 'Outbound HTTP goes through createHttpClient() from src/net/, the SSRF boundary.',
};
const NO_UNDICI_PATTERN = {
  group: ['undici/*'],
  message: NO_UNDICI_PATH.message,
};
const NO_RAW_URL_PARSING = {
  selector: "NewExpression[callee.name='URL']",
  message: 'Parse untrusted URLs with normalizeUrl() from src/engine/url/.',
};

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'data/', '.linkguard/', '.cache/', '.eval/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'simple-import-sort': simpleImportSort, n, unicorn },
    rules: {
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      'n/prefer-node-protocol': 'error',
      'unicorn/filename-case': ['error', { case: 'kebabCase' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Template literals with numbers are everywhere in messages; they are safe.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-console': 'error',
      'no-restricted-syntax': ['error', NO_RAW_FETCH, NO_SECRET_EQUALITY],
    },
  },
  {
    // undici (raw sockets, no address policy) is used only inside src/net/. This block comes before
    // the engine block, whose own list replaces it for engine files: that list forbids undici too.
    files: ['src/**/*.ts'],
    ignores: ['src/net/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [NO_UNDICI_PATH], patterns: [NO_UNDICI_PATTERN] },
      ],
    },
  },
  {
    // The engine is a pure library (DESIGN §1): no I/O imports, data arrives as arguments.
    files: ['src/engine/**/*.ts'],
    // Tests may read data/ files from disk; the engine itself may not.
    ignores: ['src/engine/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ENGINE_FORBIDDEN_IMPORTS.map((name) => ({
            name,
            message: 'src/engine is pure: pass I/O in as a port (src/engine/ports.ts).',
          })),
          patterns: [
            {
              group: ['**/http/**', '**/store/**', '**/cli/**', '**/access/**', '**/config/**'],
              message: 'src/engine may import only from src/engine.',
            },
            NO_UNDICI_PATTERN,
          ],
        },
      ],
    },
  },
  {
    // Parsing untrusted URLs happens in one place so every caller gets the same rules.
    files: ['src/**/*.ts'],
    ignores: ['src/engine/url/**', 'src/config/**'],
    rules: {
      'no-restricted-syntax': ['error', NO_RAW_URL_PARSING, NO_RAW_FETCH, NO_SECRET_EQUALITY],
    },
  },
  {
    // The paying client (src/client/) runs on the user's side and calls the linkguard service the
    // user chose, so it uses fetch directly; the SSRF-safe client is for the service's own outbound
    // requests to URLs it is asked to judge.
    files: ['src/client/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', NO_RAW_URL_PARSING, NO_SECRET_EQUALITY],
    },
  },
  {
    // The CLI talks to people; scripts and benchmarks print their tables.
    files: ['src/cli/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
