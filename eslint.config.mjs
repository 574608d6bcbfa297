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
            'deploy/image/*.mjs',
          ],
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
    // Client code never imports the server (Node-only) tree.
    files: ['components/**/*.{ts,tsx}', 'trpc/react.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/server/*', '**/server/*'],
              allowTypeImports: true,
              message: 'server/ is Node-only; import types only.',
            },
            { group: nodeOnly, message: 'Client code cannot use Node built-ins.' },
          ],
        },
      ],
    },
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
