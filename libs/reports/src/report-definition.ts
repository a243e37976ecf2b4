/**
 * What a report type is made of: its columns and a row source reading PostgreSQL through a cursor.
 * Definitions run in the worker's report threads (no Nest, no TypeORM: plain SQL through
 * {@link ReportDb}); the api runs their `count` for the pdf row limit before queueing.
 */
import type { Readable } from 'node:stream';
import type { ColumnSpec, ReportLocale, ReportRow } from './report-table';
import type { ReportFormat, ReportType } from './report-types';

/** Read access for a report: a consistent read-only snapshot in the worker. */
export interface ReportDb {
  /** All rows of a small query (`$1…` parameters). */
  query<T>(sql: string, params: unknown[]): Promise<T[]>;
  /** Rows streamed through a server-side cursor, `batch` at a time (default 1,000): never all in memory. */
  cursor<T>(sql: string, params: unknown[], batch?: number): AsyncIterable<T>;
  /**
   * The same rows as {@link cursor}, handed over as the batches (≤ `batch`, default 1,000, never
   * empty) they are read in: a big report's fast path, with one await per batch instead of per row.
   */
  batches<T>(sql: string, params: unknown[], batch?: number): AsyncIterable<T[]>;
}

/** `rows` in arrays of up to `size` (never empty): {@link ReportDb.batches} over a row source. */
export async function* batchesOf<T>(rows: AsyncIterable<T>, size = 1000): AsyncIterable<T[]> {
  let batch: T[] = [];
  for await (const r of rows) {
    batch.push(r);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** A member a report covers (resolved from `accounts` by the api). */
export interface ReportMember {
  id: string;
  name: string;
  username: string;
  /** IANA zone of the member's own days (member's, else the company's) */
  timezone: string;
}

/** A place a report covers (resolved from `accounts` by the api). */
export interface ReportPlace {
  id: string;
  name: string;
}

/** Everything a row source knows of its request. */
export interface ReportContext {
  db: ReportDb;
  companyId: string;
  company: { name: string; timezone: string };
  /** the requesting member; rows follow its `locale` */
  requester: { id: string; name: string };
  locale: ReportLocale;
  /** the members `accounts` named, in request order (empty for place and company-wide types) */
  members: ReportMember[];
  /** the places `accounts` named, in request order (place types) */
  places: ReportPlace[];
  /**
   * The range as YYYYMMDD days in the company's time zone, inclusive; absent for undated types.
   * `fromMs`/`untilMs`: the instants bounding it, [start of `from`, start of the day after `until`).
   */
  range?: { from: number; until: number; fromMs: number; untilMs: number };
  /**
   * min a member stays within 100 m for a stop (`stopsreport`, `timeline`): the request's
   * `stopMinutes`, else the company's `stop_minutes`, else the server's TRACK_STOP_MINUTES (set by
   * `loadReportContext`; absent: TRACK_STOP_MINUTES from the environment)
   */
  stopMinutes?: number;
  /**
   * What the render uses of the rows, set by the renderer: the column `keys` written, and whether a
   * row's `geometry` is (geojson). A source may read only what they need; absent: everything.
   */
  output?: { keys: ReadonlySet<string>; geometry: boolean };
}

/** A file of a zip a type builds itself (gpx: one GPX per member and day). */
export interface ReportFile {
  name: string;
  content: string | Buffer | Readable;
}

/** One report type. */
export interface ReportDefinition {
  type: ReportType;
  /** e.g. `Jobs`; the pdf title and the xlsx sheet name */
  title: string;
  /** every column the type offers, default ones first in their default order */
  columns: readonly ColumnSpec[];
  /** the rows, in report order, streamed */
  rows(ctx: ReportContext): AsyncIterable<ReportRow>;
  /**
   * The same rows in batches (never empty), where the type has a fast path for big reports: the
   * renderer prefers it to `rows` for the table formats.
   */
  batches?(ctx: ReportContext): AsyncIterable<ReportRow[]>;
  /**
   * How many rows `rows` will give (exact or an upper bound), cheap enough to run before queueing:
   * the pdf row limit is checked with it. Absent: the render stops at the limit instead.
   */
  count?(ctx: ReportContext): Promise<number>;
  /** For `zip` of files the type builds itself (gpx); else zip is one csv per row `group`. */
  files?(ctx: ReportContext): AsyncIterable<ReportFile>;
}

/** What the worker stores for a finished report (the run's result). */
export interface ReportResult {
  reportId: string;
  type: ReportType;
  format: ReportFormat;
  fileName: string;
  contentType: string;
  /** bytes of the file */
  size: number;
  /** stored chunks (report_chunks rows) */
  chunks: number;
  /** table rows rendered (files for gpx) */
  rows: number;
}
