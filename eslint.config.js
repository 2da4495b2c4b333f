import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Dependencies point one way (ARCHITECTURE.md §2):
 * electron/, serve.ts → host/ → runtime/ → storage/ → src-shared/. The renderer and the preload
 * import only src-shared; src-shared imports nothing from Node, Electron or React.
 */
const NODE_BUILTINS = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'crypto',
  'http',
  'net',
  'url',
  'util',
  'worker_threads',
];

function forbid(patterns, message) {
  return { group: patterns, message };
}

const restrict = (...groups) => ['error', { patterns: groups }];

export default tseslint.config(
  // electron.vite.config.ts.<time>-<hash>.mjs: the build's own copy of its config for the moment it loads
  // it; lint runs beside the build (npm test) and would read a file about to vanish.
  {
    ignores: [
      'out/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'e2e-artifacts/**',
      'electron.vite.config.ts.*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-undef': 'off',
    },
  },
  {
    files: ['src-shared/**'],
    rules: {
      'no-restricted-imports': restrict(
        forbid(
          [...NODE_BUILTINS, 'electron', 'better-sqlite3', 'react', 'react-dom', 'ws', 'zustand'],
          'src-shared is the contract: it imports no Node, Electron, React or storage.',
        ),
        forbid(
          ['**/src-main/**', '**/src-renderer/**', '**/src-preload/**'],
          'src-shared imports nothing from the other folders.',
        ),
      ),
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='z'][callee.property.name='string']",
          message:
            'Build string schemas with wellFormedString() (src-shared/well-formed-string.ts): it refuses lone surrogates.',
        },
      ],
    },
  },
  {
    files: ['src-main/storage/**'],
    rules: {
      'no-restricted-imports': restrict(
        forbid(
          ['**/runtime/**', '**/host/**', '**/electron/**', '**/serve', 'electron'],
          'storage/ depends only on src-shared.',
        ),
      ),
    },
  },
  {
    files: ['src-main/runtime/**'],
    rules: {
      'no-restricted-imports': restrict(
        forbid(
          ['**/host/**', '**/electron/**', '**/serve', 'electron'],
          'runtime/ must not reach up into host/ or electron/.',
        ),
        forbid(['better-sqlite3'], 'Only src-main/storage/ imports better-sqlite3; the runtime uses store interfaces.'),
      ),
    },
  },
  {
    files: ['src-main/host/**'],
    rules: {
      'no-restricted-imports': restrict(
        forbid(['**/electron/**', '**/serve', 'electron'], 'host/ runs in plain Node too: no Electron.'),
        forbid(['better-sqlite3'], 'Only src-main/storage/ imports better-sqlite3.'),
      ),
    },
  },
  {
    files: ['src-main/electron/**', 'src-main/serve.ts'],
    rules: {
      'no-restricted-imports': restrict(forbid(['better-sqlite3'], 'Only src-main/storage/ imports better-sqlite3.')),
    },
  },
  {
    files: ['src-main/host-client/**', 'src-main/acp-agent/**'],
    rules: {
      'no-restricted-imports': restrict(
        forbid(
          ['**/runtime/**', '**/storage/**', '**/host/**', '**/electron/**', '**/serve', 'electron', 'better-sqlite3'],
          'host-client/ and acp-agent/ run in another process than the host: they reach it through its local socket, never its database.',
        ),
      ),
    },
  },
  {
    files: ['src-renderer/**'],
    rules: {
      'no-restricted-imports': restrict(
        forbid(
          [...NODE_BUILTINS, 'electron', 'better-sqlite3', 'ws'],
          'The renderer runs in a browser sandbox: no Node or Electron.',
        ),
        forbid(
          ['**/src-main/**', '**/src-preload/**'],
          'The renderer talks to the host only through a Bridge (src-shared).',
        ),
      ),
    },
  },
  {
    files: ['src-preload/**'],
    rules: {
      'no-restricted-imports': restrict(
        forbid(
          ['**/src-main/**', '**/src-renderer/**'],
          'The preload implements the Bridge from src-shared and nothing else.',
        ),
        forbid([...NODE_BUILTINS], 'A sandboxed preload can require only electron.'),
      ),
    },
  },
  // Sizes a reader can hold (docs/ARCHITECTURE.md §6): a source file at most 450 lines, a function at
  // most 150. Tests and their helpers are exempt: a journey reads best whole.
  {
    files: ['src-*/**/*.ts', 'src-*/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'src-main/testing/**'],
    rules: {
      'max-lines': ['error', { max: 450 }],
      'max-lines-per-function': ['error', { max: 150 }],
    },
  },
);
