// Lint the architecture (STYLE.md §15): type-aware rules, @app/* aliases across lib boundaries.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import fieldwork from './scripts/lint/eslint-plugin-fieldwork.cjs';

/**
 * Infrastructure that may hold SQL and TypeORM's DataSource outside a repository (docs/architecture.md,
 * "SQL owners"): health, metrics, the worker heartbeat, the CLI, the database lib's own bootstrap.
 */
/**
 * A lib is entered through its index (`@app/<lib>`) or a declared entry: `@app/<lib>/pure` (the
 * Nest-free part worker threads load) and `@app/core/testing` (test-only helpers that load the
 * TypeScript compiler). Nothing reaches deeper (docs/architecture.md, "The lib shape").
 */
const DEEP_IMPORT = {
  group: ['@app/*/*', '!@app/*/pure', '!@app/core/testing'],
  message: "import a lib through its index (@app/<lib>) or its declared entry @app/<lib>/pure (@app/core/testing in specs)",
};

const INFRASTRUCTURE = [
  'apps/api/src/health/',
  'apps/api/src/metrics/',
  'apps/worker/src/heartbeat.service.ts',
  'apps/cli/src/',
  'libs/database/src/',
  'libs/core/src/database/',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs', 'scripts/lint/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../../*', '**/libs/*/src/*'], message: 'import other libs through their @app/* alias' }, DEEP_IMPORT] },
      ],
    },
  },
  {
    files: ['libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../*'], message: 'import other libs through their @app/* alias' },
            { group: ['**/apps/**'], message: 'a lib never imports an app' },
            DEEP_IMPORT,
          ],
          paths: [{ name: '@nestjs/common', importNames: ['HttpException', 'BadRequestException', 'NotFoundException', 'ForbiddenException'], message: 'libs throw DomainError; the api maps it to HTTP' }],
        },
      ],
    },
  },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    plugins: { fieldwork },
    rules: {
      'fieldwork/sql-owners': ['error', { allow: INFRASTRUCTURE }],
      'fieldwork/data-source-owners': ['error', { allow: INFRASTRUCTURE }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [DEEP_IMPORT] }] },
  },
);
