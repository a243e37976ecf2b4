/**
 * CSV (RFC 4180, UTF-8, CRLF line ends, fields quoted only where needed) through csv-stringify. The
 * file starts with a UTF-8 byte-order mark (EF BB BF) unless `bom: false` (CONTRACTS.md "Wave 3: reports
 * and the demo"): Excel reads a csv without one in the system's ANSI code page, so "Višnjan" and "Kovač"
 * come out garbled. Row 1 holds the column titles (renamed, with units), no other preamble. Cells are
 * text in the requester's formats ({@link formatCell}).
 *
 * Formula injection (OWASP "CSV Injection"): a cell whose raw value is a string starting with `=`,
 * `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so a spreadsheet opening the file shows
 * it as text instead of evaluating it. Numbers (raw numbers of any kind, e.g. `-3` or a negative
 * duration) are never prefixed: they stay numbers.
 *
 * Backpressure: `row()` resolves once csv-stringify can take more (its `drain`), which follows the
 * output's own `drain` through the pipe. Errors of the output reject the pending or next `row()`/`end()`.
 */
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { CellValue, ReportDocument, ReportRow } from '../report-table';
import { formatCell } from './cell-format';
import { drained, writeChunk } from './stream-util';
import type { TableWriter } from './table-writer';

/** First characters a spreadsheet may take as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** `text` with a leading `'` when a spreadsheet could read it as a formula. */
export function escapeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell's csv text: formatted, and escaped when the raw value was a string. */
export function csvCell(raw: CellValue | undefined, text: string): string {
  return typeof raw === 'string' ? escapeFormula(text) : text;
}

/** How a csv is written: `bom` (default true) starts it with the UTF-8 byte-order mark. */
export interface CsvOptions {
  bom?: boolean;
}

/** Opens a csv writer of `doc` onto `out`; `end()` resolves when `out` has finished. */
export function openCsvWriter(doc: ReportDocument, out: Writable, options: CsvOptions = {}): TableWriter {
  const csv = stringify({ record_delimiter: 'windows', bom: options.bom !== false });
  const done = pipeline(csv, out);
  done.catch(() => undefined); // observed through row()/end()
  const header = doc.columns.map((c) => escapeFormula(c.title));
  let started = false;
  const write = async (record: string[]): Promise<void> => writeChunk(csv, record, done);
  const record = (row: ReportRow): string[] =>
    doc.columns.map((c) => {
      const raw = row.values[c.key];
      return csvCell(raw, formatCell(raw, c.kind, doc.locale));
    });
  return {
    async row(row: ReportRow): Promise<void> {
      return this.rows([row]);
    },
    async rows(rows: readonly ReportRow[]): Promise<void> {
      if (!started) {
        started = true;
        csv.write(header);
      }
      // a batch goes in whole (its size bounds the buffer), then waits for the drain once
      for (const row of rows) csv.write(record(row));
      if (csv.writableNeedDrain) await drained(csv, done);
    },
    async end(): Promise<void> {
      if (!started) {
        started = true;
        await write(header);
      }
      csv.end();
      await done;
    },
  };
}
