// `npm run lint`: ESLint with typescript-eslint's recommended rules and React's hooks rules.
// Kept short on purpose: the type checker (npm run typecheck) and the tests carry the rest.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'coverage/', 'test-results/', 'e2e/artifacts/', 'storage/', 'node_modules/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_name` marks an argument or binding that is there on purpose and unused.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // The input guards match control characters on purpose (names, mail headers, FAT labels).
      'no-control-regex': 'off',
    },
  },
  {
    // Kysely's migrations, migrator and introspector take Kysely<any> by design (they work on
    // whatever schema is there, not today's table types); tests read untyped JSON answers and
    // build loose mock data.
    files: ['server/src/db/migrations/**', 'server/src/db/migrate.ts', 'server/src/db/currentSchemaIntrospector.ts', 'server/src/db/database.ts', 'server/test/**', 'tests/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // After-commit effects go through one place, applyAfterCommit (server/src/effects/): a domain
    // says what must follow a change, and nothing pokes the broadcaster, the outbox or the
    // reconciler on its own, where it could run before the commit or be forgotten in one path.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/effects/**', 'server/src/broadcasting/**', 'server/src/realtime/**', 'server/src/mail/**', 'server/src/main.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['rightsChanged', 'toUser', 'toWorkspace'].map((method) => ({
          selector: `CallExpression[callee.property.name='${method}']`,
          message: `Say it in an AfterCommit and apply it with applyAfterCommit (server/src/effects/afterCommit.ts), not ${method}() directly.`,
        })),
        {
          selector: "CallExpression[callee.property.name='kick'][callee.object.name='outbox'], CallExpression[callee.property.name='kick'][callee.object.property.name='outbox']",
          message: 'Say `mail: true` in an AfterCommit and apply it with applyAfterCommit, not outbox.kick() directly.',
        },
        {
          selector: "CallExpression[callee.property.name='request'][callee.object.property.name='clusterSync']",
          message: 'Say `clusterSync: true` in an AfterCommit and apply it with applyAfterCommit, not clusterSync.request() directly.',
        },
      ],
    },
  },
  {
    // Playwright finds a test's fixtures by destructuring its first argument: `({}, testInfo)`.
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    // The rules of hooks themselves. The plugin's React Compiler rules (setState in an effect, …)
    // are for code written for the compiler, which the console does not use.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
