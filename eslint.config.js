// ESLint's recommended rules for the runner, the image's code, the scripts and the tests (Node ES modules);
// formatting is Prettier's (.prettierrc.json), so no stylistic rule here but the bound on line length.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: [
      'node_modules/',
      'images/workload/node_modules/',
      'results/',
      'test-artifacts/',
      'docs/',
      'test/fixtures/',
    ],
  },
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Prettier wraps code at 120; this bounds what it cannot wrap (comments). Long messages stay whole strings, so
      // that a person can grep the code for what the tool printed.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  {
    // Functions a reader can hold: at most 80 lines (blank lines and comments count: they are read too) and ESLint's
    // default bound on the paths through one function (complexity 20), for the runner and the image's code.
    files: ['runner/**/*.js', 'images/**/*.js'],
    rules: {
      'max-lines-per-function': ['error', { max: 80 }],
      complexity: ['error', { max: 20 }],
    },
  },
  {
    files: ['test/**/*.js'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
  },
  {
    // Chart code that runs in the page, and the browser test's page.evaluate callbacks.
    files: ['runner/report/assets/**/*.js', 'test/integration/report-browser.test.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
];
