/**
 * Issue #13's figures (`BENCH_ONLY=reports`): the `jobs` report through the whole action — createreport
 * over HTTP, the run queued, rendered by the BUILT worker's report thread from a PostgreSQL cursor,
 * stored as chunks, streamed back — against the format's library alone on the same rows from memory,
 * in the same run:
 * - xlsx, 100,000 rows: wall s and the worker's peak RSS (VmHWM, reset before each report through
 *   /proc/<pid>/clear_refs), with the same at 10,000 rows for the "flat memory" ratio; baseline: the
 *   exceljs streaming WorkbookWriter fed the same rows;
 * - csv, 100,000 rows: baseline csv-stringify alone; geojson: baseline JSON.stringify of the same
 *   FeatureCollection;
 * - pdf, 10,000 rows: pages/s (pages by `pdfinfo`); baseline pdfkit alone drawing the same table;
 * - webhook editjobs → receipt p99 while 100,000-row xlsx reports render back to back, against idle.
 * "The same rows" are the rows of our own csv answer (parsed with csv-parse) and the features of our
 * own geojson answer, so both sides write identical content.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import pg from 'pg';
import { action, createCompany, TestApi } from '../test/support/api';
import { Child } from '../test/support/proc-child';
import { reportCall } from '../test/support/report-readers';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { startWorker } from '../test/support/worker';
import { fmt, printPart, PartReport } from './stats';
import { webhookProbe } from './webhook-probe';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const REPORTS_CONFIG = {
  /** rows of the big report (and jobs seeded) */
  rows: envInt('BENCH_REPORT_ROWS', 100_000),
  /** rows of the small one (the memory ratio's base; the pdf) */
  smallRows: envInt('BENCH_REPORT_SMALL_ROWS', 10_000),
  /** members the jobs are spread over */
  members: 100,
  /** timed edits per phase of the webhook figure */
  edits: envInt('BENCH_REPORT_WEBHOOK_EDITS', 200),
  warmups: 10,
  /** runs of each timed report; the median is shown */
  repeats: envInt('BENCH_REPORT_REPEATS', 3),
  targets: { xlsxS: 3, xlsxRssMb: 250, rssRatio: 1.3, csvS: 0.7, geojsonS: 1, pdfPagesPerS: 50, webhookRatio: 1.5 },
};

const opened: { worker?: Child; receiver?: WebhookReceiver } = {};

/** Stops the worker child and the receiver. Safe to call twice. */
export async function closeReports(): Promise<void> {
  const { worker, receiver } = opened;
  opened.worker = undefined;
  opened.receiver = undefined;
  await worker?.stop('SIGTERM', 10_000).catch(() => undefined);
  await receiver?.close().catch(() => undefined);
}

/** A Writable that counts and drops what it is given (the baselines write to it). */
class NullSink extends Writable {
  bytes = 0;
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.bytes += chunk.length;
    done();
  }
}

/** The worker's resident set: current and peak (VmRSS, VmHWM), MB. */
function rssOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** Resets the peak RSS of `pid` to its current RSS (Linux: `echo 5 > /proc/<pid>/clear_refs`). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Pages of a pdf (poppler's pdfinfo). */
function pdfPages(pdf: Buffer): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-pdf-'));
  try {
    const file = path.join(dir, 'r.pdf');
    writeFileSync(file, pdf);
    const out = spawnSync('pdfinfo', [file], { encoding: 'utf8' }).stdout;
    return Number(/Pages:\s+(\d+)/.exec(out)?.[1] ?? NaN);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Seeds `rows` jobs over `members` workers of a fresh company (SQL, in one statement: the seeding is
 * not what is measured), round-robin over the members, one a member a day from 2024-01-01 on, with
 * realistic text; half of them checked in, out and done.
 */
async function seedJobs(api: TestApi, pool: pg.Pool, rows: number, members: number) {
  const company = await createCompany(api, { name: 'Bench reports', timezone: 'Europe/Ljubljana' });
  const uids: string[] = [];
  for (let m = 0; m < members; m++) {
    const r = await action<{ uid: string }>(api, 'createaccount', { name: `Worker ${m}`, username: `bench.report.${m}.${Date.now()}@example.test` }, { key: company.key });
    if (r.body.status !== 0) throw new Error(`createaccount: ${JSON.stringify(r.body)}`);
    uids.push(r.body.uid);
  }
  await pool.query(
    `INSERT INTO jobs (id, company_id, destination_name, destination_text, destination_lat, destination_lng, contact_name, contact_phone,
                       text_dispatcher, day, window_start, window_end, priority, worker_id, ts_created, ts_saved, created_at,
                       ts_check_in, ts_check_out, ts_done_success)
     SELECT 'J' || lpad(g::text, 25, '0'), $1, 'Boiler service #' || g, 'Trg republike ' || (g % 40 + 1) || ', 1000 Ljubljana',
            46.0 + (g % 1000) / 10000.0, 14.5 + (g % 997) / 10000.0, 'Contact ' || g, '+386 1 ' || lpad((g % 1000000)::text, 6, '0'),
            CASE WHEN g % 3 = 0 THEN 'Bring the spare valve' ELSE '' END,
            to_char(date '2024-01-01' + (g / $4), 'YYYYMMDD')::int, 800 + (g % 8) * 100, 900 + (g % 8) * 100, g % 3,
            ($2::text[])[1 + (g % $3)], $5::bigint + g, $5::bigint + g, $5::bigint + g,
            CASE WHEN g % 2 = 0 THEN $5::bigint + g * 1000 ELSE 0 END, CASE WHEN g % 2 = 0 THEN $5::bigint + g * 1000 + 1800000 ELSE 0 END,
            CASE WHEN g % 2 = 0 THEN $5::bigint + g * 1000 + 1800000 ELSE 0 END
       FROM generate_series(0, $6 - 1) g`,
    [company.companyUid, uids, members, members, Date.UTC(2024, 0, 1), rows],
  );
  await pool.query('ANALYZE jobs');
  return { company, uids };
}

export interface ReportFigures {
  xlsx: { s: number; hwmMb: number; smallS: number; smallHwmMb: number; baselineS: number; bytes: number };
  csv: { s: number; baselineS: number; bytes: number };
  geojson: { s: number; baselineS: number; bytes: number };
  pdf: { s: number; pages: number; baselineS: number; baselinePages: number };
  webhooks: { idle: { p50: number; p99: number }; busy: { p50: number; p99: number }; reports: number };
  /** s of the median run per format: queued, rendered (the worker), answered (api wake-up + streaming back) */
  splits: Record<string, { queuedS: number; renderS: number; answerS: number }>;
  rows: number;
  smallRows: number;
  /** the worker's RSS just after start, and after a warm-up report (report thread up) */
  workerIdleMb: number;
  workerBaseMb: number;
}

export async function benchReports(opts: { api: TestApi; pool: pg.Pool; log: (line: string) => void }): Promise<ReportFigures> {
  const { api, pool, log } = opts;
  const cfg = REPORTS_CONFIG;
  const worker = await startWorker('bench reports worker', { NODE_ENV: 'production' }, (sql, params) => pool.query(sql, params));
  opened.worker = worker;
  const pid = worker.pid;
  const workerIdleMb = rssOf(pid).rss;
  const { company, uids } = await seedJobs(api, pool, cfg.rows, cfg.members);
  const smallAccounts = uids.slice(0, Math.max(1, Math.round((cfg.members * cfg.smallRows) / cfg.rows)));
  log(`reports: ${cfg.rows} jobs seeded over ${cfg.members} members`);
  const range = { from: 20240101, until: 20501231 };
  /**
   * One synchronous createreport; wall s from the call to the last byte, and where it went by the
   * run row's clock: queued (created → started), rendered (started → finished), answered (the rest:
   * the api's wake-up and the file streamed back).
   */
  const report = async (format: string, accounts: string[]) => {
    const t0 = performance.now();
    const a = await reportCall(api, 'createreport', { reporttype: 'jobs', format, ...range, accounts }, company.key);
    const s = (performance.now() - t0) / 1000;
    if (a.http !== 200 || a.json) throw new Error(`createreport jobs ${format}: ${a.http} ${a.body.toString('utf8').slice(0, 300)}`);
    const [run] = (
      await pool.query<{ q: string; r: string }>(
        `SELECT started_at - created_at AS q, finished_at - started_at AS r FROM worker_runs WHERE company_id = $1 AND kind = 'report' ORDER BY created_at DESC LIMIT 1`,
        [company.companyUid],
      )
    ).rows;
    const split = { queuedS: Number(run.q) / 1000, renderS: Number(run.r) / 1000 };
    return { s, body: a.body, split: { ...split, answerS: s - split.queuedS - split.renderS } };
  };
  /** The median of `REPEATS` runs (by wall time). */
  const median = async (format: string, accounts: string[]) => {
    const runs = [];
    for (let i = 0; i < cfg.repeats; i++) runs.push(await report(format, accounts));
    return runs.sort((x, y) => x.s - y.s)[Math.floor(runs.length / 2)];
  };
  const measured = async (format: string, accounts: string[]) => {
    resetPeak(pid);
    const r = await report(format, accounts);
    return { ...r, hwm: rssOf(pid).hwm };
  };

  await report('csv', smallAccounts); // warm-up: threads started, plans cached
  const workerBaseMb = rssOf(pid).rss;
  const smallXlsx = await measured('xlsx', smallAccounts);
  const bigXlsxPeak = await measured('xlsx', uids);
  const bigXlsx = await median('xlsx', uids);
  const csv = await median('csv', uids);
  const geojson = await median('geojson', uids);
  const pdf = await median('pdf', smallAccounts);
  log(`reports: ours done (xlsx ${fmt(bigXlsx.s, 2)} s, csv ${fmt(csv.s, 2)} s, geojson ${fmt(geojson.s, 2)} s, pdf ${fmt(pdf.s, 2)} s)`);

  // baselines: the same rows from memory through the library alone
  const rows = parseCsv(csv.body, { bom: true }) as string[][];
  if (rows.length - 1 !== cfg.rows) throw new Error(`csv has ${rows.length - 1} rows, expected ${cfg.rows}`);
  const xlsxBase = await timeIt(async () => {
    const sink = new NullSink();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: false, useStyles: true });
    const ws = wb.addWorksheet('Jobs');
    for (const r of rows) ws.addRow(r).commit();
    ws.commit();
    await wb.commit();
  });
  const csvBase = await timeIt(
    () =>
      new Promise<void>((resolve, reject) => {
        const s = stringify();
        s.pipe(new NullSink()).on('finish', resolve).on('error', reject);
        for (const r of rows) s.write(r);
        s.end();
      }),
  );
  const fc = JSON.parse(geojson.body.toString('utf8')) as unknown;
  const geojsonBase = await timeIt(async () => void JSON.stringify(fc));
  const smallRows = rows.slice(0, cfg.smallRows + 1);
  let basePages = 0;
  const pdfBase = await timeIt(
    () =>
      new Promise<void>((resolve) => {
        const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 30 });
        doc.pipe(new NullSink()).on('finish', resolve);
        const cols = smallRows[0].length;
        const w = (doc.page.width - 60) / cols;
        let y = doc.page.height;
        for (const r of smallRows) {
          if (y > doc.page.height - 50) {
            if (basePages++) doc.addPage();
            y = 30;
            smallRows[0].forEach((h, i) => doc.font('Helvetica-Bold').fontSize(7).text(h, 30 + i * w, y, { width: w - 2, height: 9, lineBreak: false, ellipsis: true }));
            y += 12;
          }
          r.forEach((c, i) => doc.font('Helvetica').fontSize(7).text(c, 30 + i * w, y, { width: w - 2, height: 9, lineBreak: false, ellipsis: true }));
          y += 11;
        }
        doc.end();
      }),
  );
  log('reports: baselines done');

  const webhooks = await webhookPhases(api, company.key, uids, range, log);
  return {
    xlsx: { s: bigXlsx.s, hwmMb: bigXlsxPeak.hwm, smallS: smallXlsx.s, smallHwmMb: smallXlsx.hwm, baselineS: xlsxBase, bytes: bigXlsx.body.length },
    csv: { s: csv.s, baselineS: csvBase, bytes: csv.body.length },
    geojson: { s: geojson.s, baselineS: geojsonBase, bytes: geojson.body.length },
    pdf: { s: pdf.s, pages: pdfPages(pdf.body), baselineS: pdfBase, baselinePages: basePages },
    webhooks,
    splits: { xlsx: bigXlsx.split, csv: csv.split, geojson: geojson.split, pdf: pdf.split },
    rows: cfg.rows,
    smallRows: cfg.smallRows,
    workerIdleMb,
    workerBaseMb,
  };
}

async function timeIt(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

/** editjobs → jobupdated receipt, idle and while 100k-row xlsx reports render back to back (the same worker). */
async function webhookPhases(api: TestApi, reportKey: string, uids: string[], range: { from: number; until: number }, log: (line: string) => void) {
  const cfg = REPORTS_CONFIG;
  const receiver = await new WebhookReceiver().start();
  opened.receiver = receiver;
  const probe = await webhookProbe(api, receiver, 'Bench report webhooks');
  const phase = () => probe.phase(cfg.edits, cfg.warmups);
  const idle = await phase();
  log('reports: webhook idle phase done');
  let running = true;
  let reports = 0;
  const loop = (async () => {
    while (running) {
      const a = await reportCall(api, 'createreport', { reporttype: 'jobs', format: 'xlsx', ...range, accounts: uids }, reportKey);
      if (a.http !== 200) throw new Error(`createreport during the webhook phase: ${a.http}`);
      reports++;
    }
  })();
  await new Promise((r) => setTimeout(r, 1000)); // a report under way
  const busy = await phase().finally(() => (running = false));
  await loop;
  log(`reports: webhook busy phase done (${reports} reports rendered meanwhile)`);
  return { idle, busy, reports };
}

/** The table rows and notes of the figures. */
export function reportsReport(f: ReportFigures): PartReport {
  const t = REPORTS_CONFIG.targets;
  const k = (n: number) => n.toLocaleString('en-US');
  const rssRatio = f.xlsx.hwmMb / f.xlsx.smallHwmMb;
  const pagesPerS = f.pdf.pages / f.pdf.s;
  const basePagesPerS = f.pdf.baselinePages / f.pdf.baselineS;
  const hookRatio = f.webhooks.busy.p99 / f.webhooks.idle.p99;
  const checks = [
    f.xlsx.s <= t.xlsxS && f.xlsx.hwmMb <= t.xlsxRssMb,
    rssRatio <= t.rssRatio,
    f.csv.s <= t.csvS,
    f.geojson.s <= t.geojsonS,
    pagesPerS >= t.pdfPagesPerS,
    hookRatio <= t.webhookRatio,
  ];
  const pf = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  return {
    rows: [
      [`jobs report, ${k(f.rows)} rows, xlsx: wall s`, fmt(f.xlsx.s, 2), fmt(f.xlsx.baselineS, 2), `${fmt(f.xlsx.s / f.xlsx.baselineS, 2)}×`, `≤ ${t.xlsxS} s`, pf(f.xlsx.s <= t.xlsxS)],
      [`same: worker peak RSS MB`, fmt(f.xlsx.hwmMb, 0), '—', '—', `≤ ${t.xlsxRssMb} MB`, pf(f.xlsx.hwmMb <= t.xlsxRssMb)],
      [`same: peak RSS at ${k(f.rows)} ÷ at ${k(f.smallRows)} rows`, fmt(f.xlsx.hwmMb, 0), fmt(f.xlsx.smallHwmMb, 0), `${fmt(rssRatio, 2)}×`, `≤ ${t.rssRatio}×`, pf(checks[1])],
      [`same, csv: wall s`, fmt(f.csv.s, 2), fmt(f.csv.baselineS, 2), `${fmt(f.csv.s / f.csv.baselineS, 2)}×`, `≤ ${t.csvS} s`, pf(checks[2])],
      [`same, geojson: wall s`, fmt(f.geojson.s, 2), fmt(f.geojson.baselineS, 2), `${fmt(f.geojson.s / f.geojson.baselineS, 2)}×`, `≤ ${t.geojsonS} s`, pf(checks[3])],
      [`pdf, ${k(f.smallRows)} rows: pages/s`, fmt(pagesPerS, 0), fmt(basePagesPerS, 0), `${fmt(pagesPerS / basePagesPerS, 2)}×`, `≥ ${t.pdfPagesPerS}`, pf(checks[4])],
      [
        `webhook editjobs → receipt p99 while ${k(f.rows)}-row reports render: ms`,
        fmt(f.webhooks.busy.p99),
        fmt(f.webhooks.idle.p99),
        `${fmt(hookRatio, 2)}×`,
        `≤ ${t.webhookRatio}×`,
        pf(checks[5]),
      ],
    ],
    notes: [
      `reports: ours = createreport over HTTP → run → the BUILT worker's report thread (cursor, writer, chunks) → the file streamed back, wall from the call to the last byte; ` +
        `baseline = the library alone writing the same rows from memory to a discarding stream (xlsx: exceljs WorkbookWriter; csv: csv-stringify; geojson: JSON.stringify of the same FeatureCollection; pdf: pdfkit drawing the same table, ${f.pdf.baselinePages} pages).`,
      `Files: xlsx ${fmt(f.xlsx.bytes / 1e6, 1)} MB, csv ${fmt(f.csv.bytes / 1e6, 1)} MB, geojson ${fmt(f.geojson.bytes / 1e6, 1)} MB; pdf ${f.pdf.pages} pages in ${fmt(f.pdf.s, 2)} s. ` +
        `xlsx at ${k(f.smallRows)} rows: ${fmt(f.xlsx.smallS, 2)} s. Worker RSS just after start ${fmt(f.workerIdleMb, 0)} MB, after a warm-up report ${fmt(f.workerBaseMb, 0)} MB (peaks are VmHWM after a reset through clear_refs).`,
      `Where the time went (median run, s — queued / rendered by the worker / api wake-up and streaming back): ` +
        Object.entries(f.splits)
          .map(([k, v]) => `${k} ${fmt(v.queuedS, 2)} / ${fmt(v.renderS, 2)} / ${fmt(v.answerS, 2)}`)
          .join('; ') +
        `. Wall times are the median of ${REPORTS_CONFIG.repeats} runs; the peak RSS is from one more run.`,
      `Webhooks: ${REPORTS_CONFIG.edits} edits per phase (p50 idle ${fmt(f.webhooks.idle.p50)} ms, busy ${fmt(f.webhooks.busy.p50)} ms); ${f.webhooks.reports} reports rendered during the busy phase.`,
    ],
    failed: checks.filter((ok) => !ok).length,
  };
}

/** `BENCH_ONLY=reports`: this part alone with the run's header. @returns the exit code */
export async function runReportsOnly(opts: { api: TestApi; pool: pg.Pool; serverVersion: string; loadAtStart: string; log: (line: string) => void }): Promise<number> {
  try {
    return printPart('reports', reportsReport(await benchReports(opts)), opts);
  } finally {
    await closeReports();
  }
}
