// Flat, type-aware ESLint config. Two boundaries are enforced here rather than by convention:
// lib/ stays pure and isomorphic, and server/ never reaches a client bundle.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import nextPlugin from '@next/eslint-plugin-next';

const nodeOnly = [
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
  'net',
  'http',
  'https',
  'crypto',
  'zlib',
  'stream',
  'worker_threads',
];

/** server/ by alias or by relative path (but not a package's own `server` entry, react-dom/server). */
const SERVER_PATH = '^(@/server|(\\.\\.?/)+server)(/|$)';
const isServerPath = (source) => new RegExp(SERVER_PATH).test(source);

/** The imports client code may not make: server/ (types per `allowTypeImports`), Node built-ins. */
const clientImports = ({ allowTypeImports, message }) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        { regex: SERVER_PATH, allowTypeImports, message },
        { group: nodeOnly, message: 'Client code cannot use Node built-ins.' },
      ],
    },
  ],
});

/** A module marked 'use client' imports nothing from server/ (not even types). */
const noServerInClient = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { server: "'{{source}}' is server code; a 'use client' module cannot import it." },
  },
  create(context) {
    let client = false;
    const check = (node) => {
      const source = node.source?.value;
      if (client && typeof source === 'string' && isServerPath(source))
        context.report({ node, messageId: 'server', data: { source } });
    };
    return {
      Program(program) {
        client = program.body.some(
          (s) => s.type === 'ExpressionStatement' && s.directive === 'use client',
        );
      },
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      'next-env.d.ts',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      '.podscope/**',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            '*.mjs',
            'bin/*.mjs',
            'scripts/*.mjs',
            'scripts/lib/*.mjs',
            'server/engine/workers/*.mjs',
            'deploy/image/*.mjs',
          ],
          // The plain .mjs scripts above outnumber typescript-eslint's default of 8.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 32,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
  {
    files: ['components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}', 'trpc/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
    },
  },
  {
    // lib/ is pure and isomorphic: no Node, React, Next, gRPC or server code.
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeOnly, message: 'lib/ is isomorphic: no Node built-ins.' },
            {
              group: ['react', 'react-dom', 'next', 'next/*', 'next-intl', 'next-intl/*'],
              message: 'lib/ is pure: no React or Next.',
            },
            {
              group: ['@grpc/*', 'better-sqlite3', '@kubernetes/client-node/*'],
              message: 'lib/ is pure: no I/O libraries.',
            },
            {
              group: ['@kubernetes/client-node'],
              allowTypeImports: true,
              message: 'lib/ uses the Kubernetes API types only (import type).',
            },
            {
              group: ['@/server/*', '**/server/*', '@/components/*', '@/app/*'],
              message: 'lib/ imports only lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Client code never imports the server (Node-only) tree, not even its types: what the
    // browser receives is typed from the router (RouterOutputs, trpc/client.ts).
    files: ['components/**/*.{ts,tsx}', 'trpc/**/*.{ts,tsx}'],
    ignores: ['trpc/client.ts'],
    rules: clientImports({
      allowTypeImports: false,
      message: 'server/ is Node-only; type what the client receives with RouterOutputs.',
    }),
  },
  {
    // The one door: the tRPC client names the router's type (and nothing else from server/).
    files: ['trpc/client.ts'],
    rules: clientImports({
      allowTypeImports: true,
      message: 'server/ is Node-only; import the router type only.',
    }),
  },
  {
    // Routes are server code except the files marked 'use client', which are client code.
    files: ['app/**/*.{ts,tsx}'],
    plugins: { podscope: { rules: { 'no-server-in-client': noServerInClient } } },
    rules: { 'podscope/no-server-in-client': 'error' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
);
