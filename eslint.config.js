// One linter for the whole repo: typescript-eslint's recommended rules.
import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'lib/',
      '.lib-*',
      'node_modules/',
      'coverage/',
      '.cache/',
      'test/**/expected/',
      'test/**/out/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // An async function that awaits nothing is synchronous work dressed as waiting (or a promise it
    // could return as it is): its callers' awaits then mislead. Tests and benchmarks implement async
    // interfaces with synchronous bodies, so this holds for the product code.
    files: ['bin/**', 'build/**', 'src/**', 'scripts/**'],
    rules: { 'require-await': 'error' },
  },
  {
    // Modules under 400 lines and functions on a screen (docs/development.md, Conventions):
    // blank lines and comments do not count, so a why-comment never pushes code apart.
    files: ['bin/**', 'build/**', 'src/**'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The server runs regexes over requests, the importer over files: none may backtrack
    // more than linearly (a `\s+$` over 16 KB of spaces held the event loop).
    // test/server/linear-regex.test.ts runs these rules too.
    files: ['src/server/**/*.ts', 'src/locations/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
);
