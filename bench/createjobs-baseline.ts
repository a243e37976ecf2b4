/**
 * The createjobs bench's baseline: one raw `pg` transaction doing the service's writes
 * ({@link baselineCreate}), and the child process the timed pairs run it in
 * ({@link startCreateJobsBaseline}).
 *
 * Why a child: the api runs in the bench process. With the baseline there too, the api's heap also
 * held the baseline's garbage (~19 MB a 1,000-job transaction, its array literals and payloads among
 * it), so the api's mark-compacts came about twice as often, and they landed in either side's calls.
 * In its own process each side collects only its own garbage, as the api does in production
 * (bench/RESULTS.md, 2026-11-29 "createjobs: each side its own heap"). The in-process split
 * (bench/createjobs.ts `breakdown`) still calls {@link baselineCreate} directly.
 *
 * Over IPC (bench/ipc-child.ts): the parent sends a `BaselineConfig`; each `{ run: true }` runs one
 * transaction and answers a `BaselineRun`.
 */
import { JOB_EVENT_KEYS, JobRow, toJobView } from '@app/jobs';
import { newEventId, newId, OUTBOX_CHANNEL, SQL_NOW_MS } from '@app/core';
import { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { JobInput } from './fixtures';
import { forkIpcChild, serveIpc } from './ipc-child';

// ---------------------------------------------------------------------------------------------------
// Baseline: one raw pg transaction doing the same inserts (1,000 jobs + 1,000 outbox events whose
// payload is the full job view, as the service writes them). unnest over typed arrays: a fixed number
// of bind parameters whatever the batch size, so PostgreSQL's 65,535-parameter limit never applies.
// ---------------------------------------------------------------------------------------------------

const JOB_COLUMNS: Array<[column: string, type: string]> = [
  ['id', 'text'],
  ['destination_name', 'text'],
  ['destination_text', 'text'],
  ['destination_lat', 'float8'],
  ['destination_lng', 'float8'],
  ['contact_name', 'text'],
  ['contact_phone', 'text'],
  ['contact_email', 'text'],
  ['text_dispatcher', 'text'],
  ['day', 'int4'],
  ['priority', 'int2'],
  ['window_start', 'int2'],
  ['window_end', 'int2'],
  ['worker_id', 'text'],
  ['custom_fields', 'jsonb'],
  ['ts_assigned', 'int8'],
  ['number', 'int4'],
];
const n = JOB_COLUMNS.length;
const BASELINE_JOBS_SQL = `INSERT INTO jobs (company_id, created_by, created_via, ts_created, ${JOB_COLUMNS.map(([c]) => c).join(', ')}, ts_saved, created_at)
  SELECT $${n + 1}, $${n + 2}, 'api', $${n + 3}, u.*, ${SQL_NOW_MS}, ${SQL_NOW_MS}
    FROM unnest(${JOB_COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')}) AS u(${JOB_COLUMNS.map(([c]) => c).join(', ')})
  RETURNING id, ts_saved::float8 AS "tsSaved", created_at::float8 AS "createdAt"`;
// The payloads travel as one json array (no per-element escaping); `json` keeps each element's text
// verbatim, so `payload` is byte for byte JSON.stringify([view]), as the service stores it.
// Like the service's (OutboxRepository.insertMany), the statement also NOTIFYs the outbox channel at
// commit: the api then stamps these events and jobs after the commit, as it stamps its own, so neither
// side leaves its stamping to be paid during the other's timing.
const BASELINE_OUTBOX_SQL = `WITH ins AS (
  INSERT INTO outbox_events (id, company_id, event_key, action, form_id, payload, created_at)
  SELECT u.id, $4, $5, 'jobcreated', u.form_id, p.payload::text, ${SQL_NOW_MS}
    FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(id, form_id, n)
    JOIN json_array_elements($3::json) WITH ORDINALITY AS p(payload, n) ON p.n = u.n
  RETURNING company_id)
  SELECT pg_notify('${OUTBOX_CHANNEL}', c) FROM (SELECT DISTINCT company_id AS c FROM ins) d`;

// the route-number statements of JobsRepository.lockRouteDays / routeNumberTops, verbatim
const BASELINE_LOCK_DAYS_SQL = `SELECT pg_advisory_xact_lock(s.k) FROM (
         SELECT DISTINCT hashtextextended('jobs.route:' || $1 || ':' || x.worker_id || ':' || x.day, 0) AS k
           FROM unnest($2::text[], $3::int[]) AS x(worker_id, day) ORDER BY 1) s`;
const BASELINE_TOPS_SQL = `SELECT x.worker_id AS "workerId", x.day, t.top
         FROM unnest($2::text[], $3::int[]) AS x(worker_id, day)
        CROSS JOIN LATERAL (
              SELECT j.number AS top FROM jobs j
               WHERE j.company_id = $1 AND j.worker_id = x.worker_id AND j.day = x.day
                 AND j.is_template = false AND j.archived = false AND NOT (j.id = ANY($4::text[]))
               ORDER BY j.number DESC LIMIT 1) t`;

/** The job as getjobs/events would read it back, built from the input and what the insert returned. */
function rowOf(
  job: JobInput,
  id: string,
  companyId: string,
  createdBy: string,
  now: number,
  stamps: { tsSaved: number; createdAt: number },
  worker: { id: string; username: string; name: string; email: string; phone: string } | undefined,
  company: { defaultRadius: number; timezone: string },
  number: number,
): JobRow {
  return {
    id,
    isTemplate: false,
    archived: false,
    type: 0,
    teamId: 0,
    destinationName: job.destinationName,
    destinationLat: job.destinationLat,
    destinationLng: job.destinationLng,
    destinationText: job.destinationText,
    destinationUrl: '',
    textDispatcher: job.textDispatcher,
    textReceiver: '',
    contactName: job.contactName,
    contactPhone: job.contactPhone,
    contactEmail: job.contactEmail,
    day: job.day,
    priority: job.priority,
    number,
    onSiteSeconds: 0,
    windowStart: job.windowStart,
    windowEnd: job.windowEnd,
    orderId: 0,
    dispatcherUid: '',
    placeUid: '',
    workerId: worker?.id ?? null,
    itemsToDropoff: 0,
    itemsToPickup: 0,
    uidSecondary: null,
    customFields: job.customFields,
    extra: {},
    tsCreated: now,
    tsAssigned: worker ? now : 0,
    tsAccepted: 0,
    tsRejected: 0,
    tsDoneSuccess: 0,
    tsDoneFailed: 0,
    tsCheckIn: 0,
    tsCheckOut: 0,
    tsCheckNFC1: 0,
    tsCheckNFC2: 0,
    tsSaved: stamps.tsSaved,
    createdAt: stamps.createdAt,
    version: 1,
    createdBy,
    createdVia: 'api',
    workerUsername: worker?.username ?? null,
    workerName: worker?.name ?? null,
    workerEmail: worker?.email ?? null,
    workerPhone: worker?.phone ?? null,
    dispatcherName: null,
    placeName: null,
    placeRadius: null,
    defaultRadius: company.defaultRadius,
    timezone: company.timezone,
    linkedZones: '',
    extraLabels: {},
  };
}

/** The baseline transaction: resolve the usernames, insert the jobs, insert their jobcreated events. */
export async function baselineCreate(pool: pg.Pool, companyId: string, createdBy: string, jobs: JobInput[]): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const now = Date.now();
    const usernames = [...new Set(jobs.filter((j) => j.worker).map((j) => j.worker!.toLowerCase()))];
    const members = await client.query(
      `SELECT m.id, lower(m.username) AS key, m.username, m.name, m.email, m.phone, c.default_radius AS "defaultRadius", c.timezone
         FROM companies c LEFT JOIN members m ON m.company_id = c.id AND lower(m.username) = ANY($2::text[]) AND m.active_status = 'active'
        WHERE c.id = $1`,
      [companyId, usernames],
    );
    const company = { defaultRadius: members.rows[0].defaultRadius as number, timezone: members.rows[0].timezone as string };
    const byName = new Map(members.rows.filter((m) => m.id).map((m) => [m.key as string, m]));
    const ids = jobs.map(() => newId());
    const workers = jobs.map((j) => (j.worker ? byName.get(j.worker.toLowerCase()) : undefined));
    // route numbers, as the service takes them: lock the worker-days the assigned jobs land on, read
    // each one's highest number, then number the jobs in input order (the same two statements)
    const dayKeys = new Map<string, { workerId: string; day: number }>();
    jobs.forEach((j, i) => {
      const w = workers[i];
      if (w && j.day) dayKeys.set(`${w.id as string}:${j.day}`, { workerId: w.id as string, day: j.day });
    });
    const days = [...dayKeys.values()];
    const numbers: number[] = new Array(jobs.length).fill(0);
    if (days.length) {
      const dayArgs = [companyId, days.map((d) => d.workerId), days.map((d) => d.day)];
      await client.query(BASELINE_LOCK_DAYS_SQL, dayArgs);
      const tops = await client.query<{ workerId: string; day: number; top: number }>(BASELINE_TOPS_SQL, [...dayArgs, []]);
      const top = new Map(tops.rows.map((r) => [`${r.workerId}:${r.day}`, r.top]));
      jobs.forEach((j, i) => {
        const w = workers[i];
        if (!w || !j.day) return;
        const key = `${w.id as string}:${j.day}`;
        numbers[i] = Math.max(top.get(key) ?? 0, 0) + 1;
        top.set(key, numbers[i]);
      });
    }
    const columns: unknown[][] = JOB_COLUMNS.map(() => new Array(jobs.length));
    jobs.forEach((j, i) => {
      const values = [
        ids[i],
        j.destinationName,
        j.destinationText,
        j.destinationLat,
        j.destinationLng,
        j.contactName,
        j.contactPhone,
        j.contactEmail,
        j.textDispatcher,
        j.day,
        j.priority,
        j.windowStart,
        j.windowEnd,
        workers[i]?.id ?? null,
        JSON.stringify(j.customFields),
        workers[i] ? now : 0,
        numbers[i],
      ];
      values.forEach((v, c) => (columns[c][i] = v));
    });
    const inserted = await client.query<{ id: string; tsSaved: number; createdAt: number }>(BASELINE_JOBS_SQL, [
      ...columns,
      companyId,
      createdBy,
      now,
    ]);
    const stamps = new Map(inserted.rows.map((r) => [r.id, r]));
    const payloads = JSON.stringify(
      jobs.map((j, i) => [toJobView(rowOf(j, ids[i], companyId, createdBy, now, stamps.get(ids[i])!, workers[i], company, numbers[i]))]),
    );
    await client.query(BASELINE_OUTBOX_SQL, [jobs.map(() => newEventId()), ids, payloads, companyId, JOB_EVENT_KEYS.jobcreated]);
    await client.query('COMMIT');
    return inserted.rowCount ?? 0;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

export interface BaselineConfig {
  connectionString: string;
  companyId: string;
  ownerUid: string;
  jobs: JobInput[];
}

export interface BaselineRun {
  /** the transaction, from taking a connection to COMMIT's answer, ms (timed in the child) */
  ms: number;
  /** jobs inserted */
  inserted: number;
  /** set when the transaction failed */
  error?: string;
}

/** The child's handler: one transaction a request, on a pool of one connection. */
function setup(cfg: BaselineConfig) {
  const pool = new pg.Pool({ connectionString: cfg.connectionString, max: 1 });
  return {
    handle: async (): Promise<BaselineRun> => {
      const t0 = performance.now();
      const inserted = await baselineCreate(pool, cfg.companyId, cfg.ownerUid, cfg.jobs);
      return { ms: performance.now() - t0, inserted };
    },
    failed: (err: Error): BaselineRun => ({ ms: 0, inserted: 0, error: err.message }),
    onStop: () => pool.end(),
  };
}

if (require.main === module && process.send) serveIpc(setup);

/** A forked baseline: `run` makes one transaction in the child and answers its timing. */
export interface CreateJobsBaseline {
  run(): Promise<BaselineRun>;
  stop(): void;
}

/** Baselines running now (killed by the bench's clean-up on a signal). */
export const baselineChildren = new Set<ChildProcess>();

/** Forks the baseline (same node and ts-node flags as this process) and waits until it is ready. */
export async function startCreateJobsBaseline(cfg: BaselineConfig): Promise<CreateJobsBaseline> {
  const child = await forkIpcChild<BaselineConfig, { run: true }, BaselineRun>(
    'createjobs baseline',
    require.resolve('./createjobs-baseline'),
    cfg,
    baselineChildren,
    (r) => r.error,
  );
  return { run: () => child.ask({ run: true }), stop: () => child.stop() };
}
