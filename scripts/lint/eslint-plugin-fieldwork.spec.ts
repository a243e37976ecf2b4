import fs from 'node:fs';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fieldwork = require('./eslint-plugin-fieldwork.cjs');

const FIXTURES = path.join(__dirname, 'fixtures/libs/jobs/src');

/** Lints one fixture file with the two rules as `eslint.config.mjs` sets them (no allow list). */
function lint(file: string): Linter.LintMessage[] {
  const filename = path.join(FIXTURES, file);
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(
    fs.readFileSync(filename, 'utf8'),
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        plugins: { fieldwork },
        rules: { 'fieldwork/sql-owners': 'error', 'fieldwork/data-source-owners': 'error' },
      },
    ],
    filename,
  );
}

const ids = (messages: Linter.LintMessage[]) => messages.map((m) => `${m.ruleId}: ${m.message}`);

describe('eslint-plugin-fieldwork (SQL owners)', () => {
  it('fails a service holding SQL and injecting DataSource', () => {
    const messages = lint('bad-sql.service.ts');
    expect(messages.filter((m) => m.ruleId === 'fieldwork/sql-owners')).toHaveLength(1);
    expect(messages.filter((m) => m.ruleId === 'fieldwork/data-source-owners')).toHaveLength(2);
    expect(messages.find((m) => m.ruleId === 'fieldwork/sql-owners')?.message).toMatch(/outside a repository or read model/);
  });

  it("fails a repository naming another lib's table, and only that statement", () => {
    const messages = lint('jobs.repository.ts');
    expect(ids(messages)).toEqual([expect.stringMatching(/fieldwork\/sql-owners: repository of "jobs" names table "places", owned by "places"/)]);
    expect(messages[0].line).toBe(10);
  });

  it('fails a read model that writes or reads a table its comments do not name', () => {
    const messages = lint('places-names.read.ts');
    expect(ids(messages).sort()).toEqual([
      expect.stringMatching(/read model only reads/),
      expect.stringMatching(/reads table "zones" without naming it/),
    ]);
  });

  it('passes a read model naming its tables, and prose with SQL words in lowercase', () => {
    expect(lint('good-places.read.ts')).toEqual([]);
    expect(lint('prose.service.ts')).toEqual([]);
  });

  it('leaves specs, migrations and files outside libs/ and apps/ alone', () => {
    const { classify } = fieldwork._internals;
    expect(classify('libs/jobs/src/x.spec.ts')).toBeNull();
    expect(classify('libs/jobs/src/x.int-spec.ts')).toBeNull();
    expect(classify('test/x.e2e-spec.ts')).toBeNull();
    expect(classify('bench/x.ts')).toBeNull();
    expect(classify('libs/database/src/migrations/1-X.ts')).toMatchObject({ lib: 'database', kind: 'migration' });
    expect(classify('apps/api/src/health/health.controller.ts', ['apps/api/src/health/'])).toMatchObject({ kind: 'allowed' });
  });

  it('finds tables after FROM, JOIN, INTO, UPDATE, with quotes and partition suffixes, not CTEs or functions', () => {
    const { tablesIn } = fieldwork._internals;
    expect([...tablesIn('WITH t AS (SELECT 1) SELECT * FROM t JOIN "members" m ON true, unnest($1) FROM location_fixes_202611')].sort()).toEqual([
      'location_fixes',
      'members',
    ]);
    expect([...tablesIn('INSERT INTO jobs (id) VALUES ($1); UPDATE places SET x = 1; DELETE FROM zones')].sort()).toEqual(['jobs', 'places', 'zones']);
  });

  it('lists every table once with an owning lib', () => {
    const owners = JSON.parse(fs.readFileSync(path.join(__dirname, '../../libs/database/src/table-owners.json'), 'utf8')) as Record<string, string>;
    const libs = fs.readdirSync(path.join(__dirname, '../../libs'));
    for (const [table, lib] of Object.entries(owners)) expect([table, libs.includes(lib)]).toEqual([table, true]);
  });
});
