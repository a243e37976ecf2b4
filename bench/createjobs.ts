import { AuthContext, jsonListUtf8 } from '@app/core';
import { JOB_SELECT_SQL, JobRow, JobsService, parseJobWrites, toJobView } from '@app/jobs';
import { ApiKeysService } from '@app/members';
import { INestApplication } from '@nestjs/common';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { unstorableIssue } from '../apps/api/src/envelope/request-context';
import { EnvelopeValidationPipe } from '../apps/api/src/envelope/validation.pipe';
import { CreateJobsDto } from '@app/jobs';
import { JobInput } from './fixtures';
import { baselineCreate, startCreateJobsBaseline } from './createjobs-baseline';
import { startCreateJobsClient } from './createjobs-client';
import { DATABASE_URL } from './env';
import { mean, median, percentile, timed } from './stats';

export interface CreateJobsFigures {
  iterations: number;
  ours: { p50: number; p95: number; mean: number };
  baseline: { p50: number; p95: number; mean: number };
  breakdown: Breakdown;
}

export interface Breakdown {
  samples: number;
  bodyBytes: number;
  responseBytes: number;
  jsonParse: number;
  envelopeCheck: number;
  auth: number;
  dtoPipe: number;
  validation: number;
  serviceTotal: number;
  serviceSql: number;
  statements: Array<{ label: string; ms: number }>;
  toJobView: number;
  payloadStringify: number;
  responseStringify: number;
  /** The baseline transaction, timed the same way (in-process, medians). */
  baseline: { total: number; sql: number; statements: Array<{ label: string; ms: number }> };
}

const summary = (ms: number[]) => ({ p50: percentile(ms, 50), p95: percentile(ms, 95), mean: mean(ms) });

/**
 * Waits (untimed) until the api has stamped the company's committed events and jobs (it does after
 * each commit, NOTIFY-driven, not awaited by the call): so neither side's timing carries the
 * stamping of the other's 1,000 rows — only ours' own, where it overlaps its answer, as in production.
 */
async function stamped(pool: pg.Pool, companyId: string): Promise<void> {
  const until = performance.now() + 10_000;
  for (;;) {
    const { rows } = await pool.query<{ pending: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM outbox_events WHERE company_id = $1 AND seq IS NULL)
           OR EXISTS (SELECT 1 FROM jobs WHERE company_id = $1 AND saved_stamp IS NULL) AS pending`,
      [companyId],
    );
    if (!rows[0].pending) return;
    if (performance.now() > until) throw new Error('the api did not stamp the createjobs rows within 10 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The baseline's events hold what the service's would: the job as JOB_SELECT_SQL + toJobView read it back. */
async function checkBaselinePayloads(pool: pg.Pool, companyId: string): Promise<void> {
  const { rows: events } = await pool.query<{ form_id: string; payload: string }>(
    `SELECT form_id, payload FROM outbox_events WHERE company_id = $1 ORDER BY id DESC LIMIT 20`,
    [companyId],
  );
  const { rows } = await pool.query<JobRow>(`${JOB_SELECT_SQL} WHERE j.company_id = $1 AND j.id = ANY($2::text[])`, [
    companyId,
    events.map((e) => e.form_id),
  ]);
  const byId = new Map(rows.map((r) => [r.id, JSON.stringify([toJobView(r)])]));
  for (const e of events) {
    if (byId.get(e.form_id) !== e.payload)
      throw new Error(`baseline payload of ${e.form_id} differs from the job read back:\n${e.payload}\n${byId.get(e.form_id)}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// SQL time inside the service: every pg Client query is timed while `sqlLog` is set (statements run
// one after the other inside the transaction, so their sum is the time the service awaited pg).
// ---------------------------------------------------------------------------------------------------

let sqlLog: Array<{ label: string; ms: number }> | null = null;

function labelOf(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  if (/^SELECT j\.id, j\.is_template/.test(s)) return 'SELECT job views (JOB_SELECT_SQL)';
  if (/^SELECT \(SELECT json_agg\(json_build_array\(m\.id/.test(s)) return "the views' joins, read before the insert (BATCH_JOB_REFS_SQL)";
  // ours builds the views while this statement runs: until it answers, that JS counts here (docs/jobs-writes.md)
  if (/^WITH inserted AS \( INSERT INTO jobs/.test(s)) return 'INSERT INTO jobs (+ the views built in JS meanwhile)';
  if (/^(START TRANSACTION|BEGIN)\b/i.test(s)) return 'BEGIN';
  if (/^SELECT pg_advisory_xact_lock/.test(s)) return 'route numbers: lock the worker-days (pg_advisory_xact_lock)';
  if (/^SELECT x\.worker_id AS "workerId", x\.day, t\.top/.test(s)) return "route numbers: the worker-days' highest numbers";
  if (/^WITH ins AS \( INSERT INTO outbox_events/.test(s)) return 'INSERT INTO outbox_events (+ pg_notify at commit)';
  // the api's stamping of the committed events and jobs (after the commit, in its own transaction)
  if (/outbox_sequences|^WITH todo AS|^WITH s AS MATERIALIZED|^SET TRANSACTION/.test(s))
    return 'after commit, not awaited: stamping (outbox seq, job stamps)';
  const m = /^(INSERT INTO \w+|UPDATE \w+|DELETE FROM \w+|COMMIT|ROLLBACK|SELECT .*? FROM "?(\w+)"?)/i.exec(s);
  if (!m) return s.slice(0, 40);
  return m[2] ? `SELECT … FROM ${m[2]}` : m[1];
}

function instrumentPg(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown; __benchTimed?: boolean };
  if (proto.__benchTimed) return;
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const log = sqlLog;
    const t0 = performance.now(); // before the call: pg serialises the parameters synchronously in it
    const result = original.apply(this, args);
    if (!log || !result || typeof (result as Promise<unknown>).then !== 'function') return result;
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string })?.text ?? '');
    return (result as Promise<unknown>).then((r) => {
      log.push({ label: labelOf(text), ms: performance.now() - t0 });
      return r;
    });
  };
  proto.__benchTimed = true;
}

/**
 * The split for one 1,000-job createjobs, measured by calling the pieces in-process (no HTTP),
 * `samples` times each, medians reported.
 */
async function breakdown(
  app: INestApplication,
  key: string,
  body: string,
  samples: number,
  baselineRun: () => Promise<unknown>,
): Promise<Breakdown> {
  instrumentPg();
  const apiKeys = app.get(ApiKeysService);
  const ctx: AuthContext = await apiKeys.authenticate(key);
  const pipe = new EnvelopeValidationPipe();
  const auth: number[] = [];
  const dtoPipe: number[] = [];
  const service = app.get(JobsService);
  const dataSource = app.get(DataSource);
  const parse: number[] = [];
  const envelope: number[] = [];
  const validation: number[] = [];
  const total: number[] = [];
  const sql: number[] = [];
  const views: number[] = [];
  const payloads: number[] = [];
  const response: number[] = [];
  const perStatement = new Map<string, number[]>();
  let responseBytes = 0;
  const record = (log: Array<{ label: string; ms: number }>, into: Map<string, number[]>) => {
    const byLabel = new Map<string, number>();
    for (const e of log) byLabel.set(e.label, (byLabel.get(e.label) ?? 0) + e.ms);
    for (const [label, ms] of byLabel) into.set(label, [...(into.get(label) ?? []), ms]);
    // the api's stamping runs beside the call (after a commit, not awaited): listed, not summed
    return log.reduce((a, e) => (e.label.startsWith('after commit') ? a : a + e.ms), 0);
  };
  const baseTotal: number[] = [];
  const baseSql: number[] = [];
  const baseStatements = new Map<string, number[]>();
  for (let s = 0; s < samples; s++) {
    const log: Array<{ label: string; ms: number }> = [];
    sqlLog = log;
    try {
      baseTotal.push((await timed(baselineRun)).ms);
    } finally {
      sqlLog = null;
    }
    baseSql.push(record(log, baseStatements));
  }
  for (let s = 0; s < samples; s++) {
    const p = await timed(() => JSON.parse(body) as { data: { jobs: unknown[] } });
    parse.push(p.ms);
    const data = p.value.data;
    envelope.push((await timed(() => unstorableIssue(data, 'data'))).ms);
    auth.push((await timed(() => apiKeys.authenticate(key))).ms);
    const d = await timed(() => pipe.transform(data, { type: 'custom', metatype: CreateJobsDto }) as Promise<CreateJobsDto>);
    dtoPipe.push(d.ms);
    // the pipe's own validation of the jobs, timed again apart (it is part of the pipe's time)
    validation.push((await timed(() => parseJobWrites(data.jobs, 'data.jobs'))).ms);

    const log: Array<{ label: string; ms: number }> = [];
    sqlLog = log;
    let result: Awaited<ReturnType<JobsService['createJobs']>>;
    try {
      const t = await timed(() => service.createJobs(ctx, { jobs: d.value.writes }, 'api'));
      total.push(t.ms);
      result = t.value;
    } finally {
      sqlLog = null;
    }
    sql.push(record(log, perStatement));

    // the answer as the controller makes it: the views' UTF-8 bytes (the service's, inside those its events carry) put together
    const r = await timed(() => jsonListUtf8('{"status":0,"jobs":[', result.jobsUtf8, ']}'));
    response.push(r.ms);
    responseBytes = r.value.length;

    // two pieces of the service's own JS, timed on the same data: the view mapping and the payloads
    const rows: JobRow[] = await dataSource.query(`${JOB_SELECT_SQL} WHERE j.company_id = $1 AND j.id = ANY($2::text[])`, [
      ctx.companyId,
      result.jobs.map((j) => j.id),
    ]);
    const v = await timed(() => rows.map(toJobView));
    views.push(v.ms);
    // each view serialised once (its text is both its event's payload and its part of the answer)
    payloads.push((await timed(() => v.value.map((view) => JSON.stringify(view)))).ms);
  }
  return {
    samples,
    bodyBytes: Buffer.byteLength(body),
    responseBytes,
    jsonParse: median(parse),
    envelopeCheck: median(envelope),
    auth: median(auth),
    dtoPipe: median(dtoPipe),
    validation: median(validation),
    serviceTotal: median(total),
    serviceSql: median(sql),
    statements: [...perStatement].map(([label, ms]) => ({ label, ms: median(ms) })),
    toJobView: median(views),
    payloadStringify: median(payloads),
    responseStringify: median(response),
    baseline: {
      total: median(baseTotal),
      sql: median(baseSql),
      statements: [...baseStatements].map(([label, ms]) => ({ label, ms: median(ms) })),
    },
  };
}

/**
 * createjobs with 1,000 jobs over HTTP vs the raw pg baseline, interleaved (ours, baseline, ours, …)
 * so both see the same table sizes; `warmups` pairs are not counted.
 */
export async function benchCreateJobs(opts: {
  app: INestApplication;
  url: string;
  key: string;
  companyId: string;
  ownerUid: string;
  pool: pg.Pool;
  jobs: JobInput[];
  warmups: number;
  iterations: number;
  breakdownSamples: number;
  log: (line: string) => void;
}): Promise<CreateJobsFigures> {
  const body = JSON.stringify({ data: { jobs: opts.jobs } });
  // the HTTP client runs in a child process: its write of the 0.5 MB request and its read of the ~2 MB
  // answer are the client's work, not the api's (bench/createjobs-client.ts)
  const client = await startCreateJobsClient({ url: `${opts.url}/api/createjobs`, body, headers: { 'api-key': opts.key } });
  // the baseline transaction runs in a process of its own too: each side collects only its own garbage
  // (bench/createjobs-baseline.ts)
  const baseline = await startCreateJobsBaseline({
    connectionString: DATABASE_URL,
    companyId: opts.companyId,
    ownerUid: opts.ownerUid,
    jobs: opts.jobs,
  }).catch((err: Error) => {
    client.stop();
    throw err;
  });
  const ours: number[] = [];
  const base: number[] = [];
  try {
    for (let i = 0; i < opts.warmups + opts.iterations; i++) {
      const res = await client.call(i === 0);
      if (res.status !== 200 || !res.head.startsWith('{"status":0')) throw new Error(`createjobs answered ${res.status}: ${res.head}`);
      if (i === 0 && res.jobs !== opts.jobs.length) throw new Error(`createjobs answered ${res.jobs} jobs for ${opts.jobs.length}`);
      await stamped(opts.pool, opts.companyId);
      const b = await baseline.run();
      if (b.inserted !== opts.jobs.length) throw new Error(`baseline inserted ${b.inserted} jobs`);
      await stamped(opts.pool, opts.companyId);
      if (i === 0) await checkBaselinePayloads(opts.pool, opts.companyId);
      if (i >= opts.warmups) {
        ours.push(res.ms);
        base.push(b.ms);
      }
    }
  } finally {
    client.stop();
    baseline.stop();
  }
  opts.log(`createjobs: ${opts.iterations} timed pairs done; in-process breakdown (${opts.breakdownSamples} samples)`);
  const split = await breakdown(opts.app, opts.key, body, opts.breakdownSamples, () =>
    baselineCreate(opts.pool, opts.companyId, opts.ownerUid, opts.jobs),
  );
  return { iterations: opts.iterations, ours: summary(ours), baseline: summary(base), breakdown: split };
}
