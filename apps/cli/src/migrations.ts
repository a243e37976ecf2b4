import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig, ensureDatabase } from '@app/core';
import { checkDistribution, dataSourceOptions, DistributionViolation, TABLE_KINDS } from '@app/database';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

/** Creates the database if missing and runs every pending migration. */
export async function migrate(config: AppConfig): Promise<string[]> {
  const created = await ensureDatabase(config.DATABASE_URL);
  const ds = await new DataSource(dataSourceOptions(config)).initialize();
  try {
    const ran = await ds.runMigrations({ transaction: 'each' });
    return [...(created ? ['database created'] : []), ...ran.map((m) => `migrated ${m.name}`)];
  } finally {
    await ds.destroy();
  }
}

/** SQL the entities need beyond the migrated schema (empty = no drift). */
export async function pendingSchemaChanges(config: AppConfig): Promise<{ up: string[]; down: string[] }> {
  const ds = await new DataSource(dataSourceOptions(config)).initialize();
  try {
    const log = await ds.driver.createSchemaBuilder().log();
    return {
      up: log.upQueries.map((q) => q.query),
      down: log.downQueries.map((q) => q.query).reverse(),
    };
  } finally {
    await ds.destroy();
  }
}

/**
 * The migrated schema's breaks of the distribution rules (`table-kinds.json`, CONTRACTS "Wave 3:
 * scale"), read from the catalog of `DATABASE_URL`'s `public` schema; empty = ready to distribute.
 */
export async function distributionViolations(config: AppConfig): Promise<DistributionViolation[]> {
  const client = new Client({ connectionString: config.DATABASE_URL });
  await client.connect();
  try {
    return await checkDistribution(async (sql, params) => (await client.query(sql, params)).rows, TABLE_KINDS);
  } finally {
    await client.end();
  }
}

/**
 * Writes `libs/database/src/migrations/<epoch-ms>-<Name>.ts` with what the entities need beyond the
 * migrated schema (STYLE.md §13); the file must then be added to `migrations/index.ts`.
 */
export async function generateMigration(config: AppConfig, name: string): Promise<string | null> {
  if (!/^[A-Z][A-Za-z0-9]+$/.test(name)) throw new Error('migration name must be VerbNoun in PascalCase');
  const { up, down } = await pendingSchemaChanges(config);
  if (!up.length) return null;
  const ts = Date.now();
  const esc = (q: string) => q.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
  const body = `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${name}${ts} implements MigrationInterface {
  name = '${name}${ts}';

  async up(q: QueryRunner): Promise<void> {
${up.map((s) => `    await q.query(\`${esc(s)}\`);`).join('\n')}
  }

  async down(q: QueryRunner): Promise<void> {
${down.map((s) => `    await q.query(\`${esc(s)}\`);`).join('\n')}
  }
}
`;
  const file = join(process.cwd(), 'libs/database/src/migrations', `${ts}-${name}.ts`);
  writeFileSync(file, body);
  return file;
}
