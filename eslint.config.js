// Lint rules for toolrun's own code (npm test runs this after the formatter check).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Node's globals, for the plain .js files (bin, scripts, bench, fixtures); TypeScript checks its own.
const NODE_GLOBALS = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'TextEncoder',
    'TextDecoder',
    'AbortController',
    'AbortSignal',
    'performance',
    'fetch',
    'Request',
    'Response',
    'Headers',
    'structuredClone',
    'queueMicrotask',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'globalThis',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.ci/.venv/**', 'src/**/*.generated.*'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: NODE_GLOBALS },
    rules: {
      // Used on purpose: a value the code just checked, or one the SDK types as optional but always sets.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `_name` marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Escape-handling regexes match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // bin/toolrun.js is CommonJS too (bin/package.json): an ES module entry starts Node's ES module loader.
    files: ['**/*.cjs', 'bin/toolrun.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...NODE_GLOBALS, require: 'readonly', module: 'writable', __dirname: 'readonly', __filename: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
