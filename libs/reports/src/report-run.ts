import type { ErrorKind, ReadServer } from '@app/core/pure';
import type { ReportResult } from './report-definition';
import type { ReportFormat, ReportType } from './report-types';

/** A requested column (createreport's `columns[]`), checked against the type's set by the api. */
export interface RequestedColumn {
  key: string;
  rename?: string;
  isCheck?: boolean;
}

/** The `report` run's parameters: the request as the api checked and resolved it. */
export interface ReportParams {
  type: ReportType;
  format: ReportFormat;
  /** YYYYMMDD inclusive, company time zone; absent for undated types */
  range?: { from: number; until: number };
  /** members `accounts` named, resolved to ids, in request order (member types) */
  memberIds: string[];
  /** places `accounts` named (place types) */
  placeIds: string[];
  columns?: RequestedColumn[];
  /** createreport's `stopMinutes` (min, 1–240): the stop threshold of this report, over the company's `stop_minutes` */
  stopMinutes?: number;
  /** csv (also the csv files of a zip): false leaves the UTF-8 byte-order mark out; absent = true */
  bom?: boolean;
}

declare module '@app/core' {
  interface RunKinds {
    report: { params: ReportParams; result: ReportResult };
  }
}

/** What a report thread is handed: the run and its parameters. */
export interface RenderJob {
  companyId: string;
  /** the run's id = the report's id */
  runId: string;
  /** the requesting member */
  memberId: string;
  params: ReportParams;
  /**
   * The primary's WAL position when the run was created (pg_lsn text): the report reads from the
   * replica once it has replayed past it (docs/scaling.md, "Read replica"); null or absent → the primary.
   */
  readLsn?: string | null;
}

/** What a render thread answers: the stored file's size and chunks, and the rows rendered. */
export interface RenderOutcome {
  size: number;
  chunks: number;
  rows: number;
}

/**
 * A render thread's answer: the outcome and the server its snapshot was read from, or the DomainError
 * it met as plain data.
 */
export type RenderAnswer =
  { outcome: RenderOutcome; readFrom: ReadServer } | { domainError: { kind: ErrorKind; message: string; field?: string; rule?: string } };
