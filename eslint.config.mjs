import js from '@eslint/js';
import nextVitals from 'eslint-config-next/core-web-vitals';
import drizzle from 'eslint-plugin-drizzle';
import tseslint from 'typescript-eslint';

/**
 * The style the house holds to (CONTRIBUTING.md), checked: ESLint's and typescript-eslint's strict rules, Next's rules
 * (React, hooks, accessibility, Core Web Vitals), drizzle's "no DELETE or UPDATE without WHERE", and type-only imports
 * written as such. A rule turned off says why beside it.
 */
export default tseslint.config(
  {
    ignores: [
      '.next/**',
      '.next-*/**',
      '.data/**',
      '.data-*/**',
      'coverage/**',
      'dist/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/artifacts/**',
      'next-env.d.ts',
      // Generated: openapi-typescript's output and drizzle-kit's snapshots.
      'test/support/openapi-types.ts',
      'db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...nextVitals,
  ...tseslint.configs.strict,
  {
    plugins: { drizzle },
    rules: {
      // The names a database handle or transaction goes by here; anything else named `delete`/`update` (a Map, a
      // hash, Stripe) is not a query.
      'drizzle/enforce-delete-with-where': ['error', { drizzleObjectName: ['db', 'tx', 'executor', 'database'] }],
      'drizzle/enforce-update-with-where': ['error', { drizzleObjectName: ['db', 'tx', 'executor', 'database'] }],
      // `typeof import('…')` types a module loaded later (after an environment is set); that is not an import.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `x!` states a fact the code has just checked (a regex group that matched, an index in range); it is how
      // this codebase reads arrays, and turning noUncheckedIndexedAccess on will make it the rule rather than noise.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Refusing control characters is a feature (docs/api.md §7.2): every such pattern here is deliberate.
      'no-control-regex': 'off',
      // An empty catch is how a best-effort step says "ignore its failure".
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Outside React code a function named use… is a verb (useDatabase, useSecureCookies, Playwright's `use`).
    files: ['**/*.{ts,mts,mjs,js}'],
    ignores: ['app/**', 'components/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'test/**', 'e2e/**', 'bench/**'],
    rules: {
      // Tests read JSON bodies whose shape is what they assert.
      '@typescript-eslint/no-explicit-any': 'off',
      // Unsetting an environment variable by name is `delete process.env[name]`.
      '@typescript-eslint/no-dynamic-delete': 'off',
      // Playwright fixtures that use no other fixture are written `async ({}, use) => …`.
      'no-empty-pattern': 'off',
    },
  },
  {
    // lib/engine/ is changed by its owner only: its findings are reported, not failed on, until they are fixed there.
    files: ['lib/engine/**'],
    rules: { '@typescript-eslint/no-unused-vars': 'warn', 'no-useless-escape': 'warn' },
  },
);
