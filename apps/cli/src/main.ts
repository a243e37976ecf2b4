import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, DomainError, loadConfig } from '@app/core';
import { JobsService } from '@app/jobs';
import { ApiKeysService, CompanyService, MembersService } from '@app/members';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { CliModule } from './cli.module';
import { DEMO_WORKER_USERNAME, seedDemo } from './demo';
import { followDemo, replayDemo } from './demo-live';
import { distributionViolations, generateMigration, migrate, pendingSchemaChanges } from './migrations';

const USAGE = `usage: npm run -s cli -- <command> [options]
  create-company --name <n> --username <admin login> [--password <p>] [--timezone <IANA>]
  create-api-key --username <login> [--label <text>]
  revoke-api-key --prefix <fwk_xxxxxxxx>
  list-api-keys --username <login>
  migrate                      create the database if missing and run pending migrations
  migration-check              fail if the entities need schema changes no migration makes
  migration-generate <Name>    write a migration for those changes
  check-distribution           fail unless every table is listed in table-kinds.json and follows its
                               kind's rule (per-company, reference, global lookup: docs/scaling.md)
  seed-demo [--timezone <IANA>]
                               seed the demo company if the database is empty (its zone: Europe/Zagreb
                               unless given); print a fresh demo key
  demo-live --url <api> --key <demo key>
                               through the running api: places at today's demo jobs and the yard, a
                               zone and an alert rule, and the demo worker's day (a real recorded drive
                               with his stops, check-ins, a completed job, clock-in and clock-out)
                               replayed through pushlocations, ending a minute ago
  demo-follow --url <api>      the demo worker keeps driving, in real time, until Ctrl-C/SIGTERM
The last line printed on stdout is one JSON object.`;

/** Prints the result as the last stdout line (one JSON object). */
const out = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function withServices<T>(
  fn: (s: { company: CompanyService; members: MembersService; apiKeys: ApiKeysService; jobs: JobsService; ds: DataSource }) => Promise<T>,
): Promise<T> {
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    return await fn({
      company: app.get(CompanyService),
      members: app.get(MembersService),
      apiKeys: app.get(ApiKeysService),
      jobs: app.get(JobsService),
      ds: app.get(DataSource),
    });
  } finally {
    await app.close();
  }
}

function required(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new DomainError('invalid', `--${name} is required`);
  return v;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      timezone: { type: 'string' },
      prefix: { type: 'string' },
      label: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
    },
  });
  const config = loadConfig();
  switch (command) {
    case 'migrate': {
      const done = await migrate(config);
      done.forEach((line) => console.error(line));
      out({ migrated: done.length });
      return 0;
    }
    case 'migration-check': {
      const { up } = await pendingSchemaChanges(config);
      if (up.length) {
        console.error(
          `schema drift: the entities need changes no migration makes:\n  ${up.join(';\n  ')}\nrun: npm run migration:generate -- <Name>`,
        );
        out({ drift: true, statements: up.length });
        return 1;
      }
      out({ drift: false });
      return 0;
    }
    case 'check-distribution': {
      const violations = await distributionViolations(config);
      if (violations.length) {
        console.error(
          `not ready to distribute (libs/database/src/table-kinds.json, docs/scaling.md):\n${violations.map((v) => `  ${v.table}: ${v.rule}`).join('\n')}`,
        );
      }
      out({ violations: violations.length });
      return violations.length ? 1 : 0;
    }
    case 'migration-generate': {
      const file = await generateMigration(config, positionals[0] ?? '');
      out({ file });
      return 0;
    }
    case 'create-company': {
      const created = await withServices((s) =>
        s.company.createCompany({
          name: required(values, 'name'),
          username: required(values, 'username'),
          password: values.password,
          timezone: values.timezone,
        }),
      );
      out({
        companyUid: created.companyUid,
        memberUid: created.memberUid,
        username: created.username,
        apiKey: created.apiKey,
        prefix: created.prefix,
      });
      return 0;
    }
    case 'create-api-key': {
      const key = await withServices((s) => s.apiKeys.issue(required(values, 'username'), values.label ?? ''));
      out({ memberUid: key.memberUid, apiKey: key.apiKey, prefix: key.prefix });
      return 0;
    }
    case 'revoke-api-key': {
      const prefix = required(values, 'prefix');
      const revoked = await withServices((s) => s.apiKeys.revoke(prefix));
      out({ prefix, revoked });
      return revoked ? 0 : 1;
    }
    case 'list-api-keys': {
      const keys = await withServices((s) => s.apiKeys.list(required(values, 'username')));
      out({ keys });
      return 0;
    }
    case 'seed-demo': {
      const demo = await withServices((s) => seedDemo(s.ds, s, values.timezone));
      out(demo);
      return 0;
    }
    case 'demo-live': {
      const url = required(values, 'url');
      const key = required(values, 'key');
      const worker = await withServices((s) => s.apiKeys.issue(DEMO_WORKER_USERNAME, 'demo replay'));
      try {
        out(await replayDemo(url, key, worker.apiKey));
      } finally {
        await withServices((s) => s.apiKeys.revoke(worker.prefix));
      }
      return 0;
    }
    case 'demo-follow': {
      const url = required(values, 'url');
      const worker = await withServices((s) => s.apiKeys.issue(DEMO_WORKER_USERNAME, 'demo live'));
      const stop = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
      try {
        out({ fixes: await followDemo(url, worker.apiKey, stop.signal) });
      } finally {
        await withServices((s) => s.apiKeys.revoke(worker.prefix));
      }
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((err) => {
    if (err instanceof ConfigError || err instanceof DomainError) console.error(err.message);
    else console.error(err);
    out({ error: (err as Error).message });
    process.exit(1);
  });
