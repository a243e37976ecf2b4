/**
 * The format writers' common shape: a table goes in row by row, bytes come out into a Node
 * `Writable` as they are produced, so memory stays flat however many rows there are.
 */
import type { Writable } from 'node:stream';
import type { ReportDocument, ReportRow } from '../report-table';

/** Writes one report table in one format. */
export interface TableWriter {
  /**
   * Adds one row. Await it: it resolves when the output can take more (backpressure), so a slow
   * consumer slows the producer instead of growing a buffer.
   */
  row(row: ReportRow): Promise<void>;
  /** Adds rows in order, as `row` each; resolves when the output can take more after them. */
  rows(rows: readonly ReportRow[]): Promise<void>;
  /** Finishes the file (footer, page numbers, zip directory) and ends the output stream. */
  end(): Promise<void>;
}

/** The table formats; `zip` is built from these (timeallocation: one csv per member) or per type (gpx). */
export type TableFormat = 'xlsx' | 'csv' | 'pdf' | 'geojson';

/** Opens a writer of `doc` onto `out`. */
export type TableWriterFactory = (doc: ReportDocument, out: Writable) => TableWriter;
