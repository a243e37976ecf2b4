// Lint the architecture (STYLE.md §15): type-aware rules, @app/* aliases across lib boundaries.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
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
        { patterns: [{ group: ['../../*', '**/libs/*/src/*'], message: 'import other libs through their @app/* alias' }] },
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
          ],
          paths: [{ name: '@nestjs/common', importNames: ['HttpException', 'BadRequestException', 'NotFoundException', 'ForbiddenException'], message: 'libs throw DomainError; the api maps it to HTTP' }],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
