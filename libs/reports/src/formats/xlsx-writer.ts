/**
 * Office Open XML spreadsheet (ECMA-376, `.xlsx`) through exceljs's streaming
 * `stream.xlsx.WorkbookWriter` writing onto the output (`stream` option; no shared strings, styles
 * on). One worksheet named after `doc.title` (Excel's rules: at most 31 characters, none of
 * `\ / ? * : [ ]`), a bold header row frozen in place, column widths from the columns (characters).
 * `doc.subtitle` goes to the workbook's description property.
 *
 * Cells are real types, not text:
 * - datetime: a date cell holding the *wall clock in the requester's zone* (Excel has no time zones),
 *   numFmt from `unitDate` + `unitTime`, e.g. `yyyy-mm-dd hh:mm` or `mm/dd/yyyy h:mm AM/PM`;
 * - date: a date cell of that day, numFmt from `unitDate`; time: the wall-clock time of day as a
 *   fraction of a day, numFmt `hh:mm` / `h:mm AM/PM`;
 * - duration: seconds as a fraction of a day, numFmt `[h]:mm:ss` (sums past 24 h stay right);
 * - distance / speed: numbers in km or mi / km/h or mph, numFmt `0.00` / `0.0`;
 * - integer `0`; number rounded to 2 decimals (General); check: the text ✓ or empty; text as is.
 * Strings are written as strings (`t="str"` with a `<v>`, never an `<f>`): text starting with `=`
 * is not a formula here, so no escaping is needed (and none is done: the text stays exact).
 *
 * Memory: each row is committed (`row.commit()`) as it is added, so exceljs keeps no row objects.
 * exceljs 4.4's worksheet stream ignores the zip's backpressure (its StreamBuf writes on into the
 * zip entry's PassThrough without waiting; issues exceljs#464, #1894 and #2916, PR #2558 waiting for
 * exceljs 5): a producer faster than the deflate piles the sheet's XML up there, ~0.45 KB a row
 * (measured: 27 MB in that PassThrough and 56 MB retained at 80,000 rows). So `row()` waits for that
 * PassThrough's `drain` whenever it asks for one (exceljs#464's workaround: its writable state is read
 * where exceljs keeps it, `worksheet.stream.pipes[0]`; a future exceljs without it simply skips the
 * wait), and yields to the event loop every {@link YIELD_ROWS} rows so V8's GC tasks run (measured
 * with forced GCs: ~10 MB retained at 100,000 rows, flat). It also waits for the output's `drain`.
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { CellValue, ColumnKind, ReportDocument, ReportLocale, ReportRow } from '../report-table';
import { convertDistance, convertSpeed, dayFields, isChecked, CHECK_MARK, round, wallClock, type WallClock } from './cell-format';
import { drained } from './stream-util';
import type { TableWriter } from './table-writer';

const MS_PER_DAY = 86_400_000;

/** A worksheet name Excel accepts: forbidden characters replaced by `_`, at most 31 characters, never empty. */
export function sheetName(title: string): string {
  const name = title
    .replace(/[\\/?*:[\]]/g, '_')
    .replace(/^'+|'+$/g, '')
    .slice(0, 31)
    .trim();
  return name === '' ? 'Report' : name;
}

/** A `unitDate` pattern (YYYY, YY, MM, M, DD, D) as an Excel number format; other characters quoted. */
export function excelDateFormat(unitDate: string): string {
  return unitDate.replace(/YYYY|YY|MM|M|DD|D|[^YMD]/g, (t) => {
    if (/^[YMD]+$/.test(t)) return t.toLowerCase();
    return /[-./ ,]/.test(t) ? t : `\\${t}`;
  });
}

/** The Excel time-of-day format for `unitTime`: `hh:mm` or `h:mm AM/PM`. */
export function excelTimeFormat(unitTime: ReportLocale['unitTime']): string {
  return unitTime === '12' ? 'h:mm AM/PM' : 'hh:mm';
}

/** The number format of a kind's cells (undefined: General). */
export function excelNumFmt(kind: ColumnKind, locale: ReportLocale): string | undefined {
  switch (kind) {
    case 'datetime':
      return `${excelDateFormat(locale.unitDate)} ${excelTimeFormat(locale.unitTime)}`;
    case 'date':
      return excelDateFormat(locale.unitDate);
    case 'time':
      return excelTimeFormat(locale.unitTime);
    case 'duration':
      return '[h]:mm:ss';
    case 'distance':
      return '0.00';
    case 'speed':
      return '0.0';
    case 'integer':
      return '0';
    case 'coordinate':
      return '0.000000';
    case 'number':
    case 'text':
    case 'check':
      return undefined;
  }
}

const utcOf = (c: WallClock): Date => new Date(Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second));

/** A raw value as the exceljs cell value of a kind (see the module doc); `null` is an empty cell. */
export function excelValue(v: CellValue | undefined, kind: ColumnKind, locale: ReportLocale): ExcelJS.CellValue {
  if (kind === 'check') return isChecked(v) ? CHECK_MARK : null;
  if (v === null || v === undefined) return null;
  if (typeof v !== 'number') return kind === 'text' || typeof v === 'string' ? v : String(v);
  if (!Number.isFinite(v)) return null;
  switch (kind) {
    case 'datetime':
      return utcOf(wallClock(v, locale.timezone));
    case 'date':
      return utcOf(dayFields(v));
    case 'time': {
      const c = wallClock(v, locale.timezone);
      return (c.hour * 3600 + c.minute * 60 + c.second) / 86_400;
    }
    case 'duration':
      return (Math.round(v) * 1000) / MS_PER_DAY;
    case 'distance':
      return convertDistance(v, locale.unitDistance);
    case 'speed':
      return convertSpeed(v, locale.unitDistance);
    case 'integer':
      return Math.round(v);
    case 'number':
      return round(v, 2);
    case 'coordinate':
      return round(v, 6);
    case 'text':
      return v;
  }
}

/** The zip entry stream exceljs writes a worksheet's XML into (readable-stream's PassThrough), if it is where exceljs 4.4 keeps it. */
function sheetEntry(ws: ExcelJS.Worksheet): { _writableState?: { needDrain?: boolean } } | undefined {
  const stream = (ws as unknown as { stream?: { pipes?: unknown[] } }).stream;
  return stream?.pipes?.[0] as { _writableState?: { needDrain?: boolean } } | undefined;
}

/** Rows between yields to the event loop (see the module doc). */
const YIELD_ROWS = 200;

/** Opens an xlsx writer of `doc` onto `out`; `end()` resolves when `out` has finished. */
export function openXlsxWriter(doc: ReportDocument, out: Writable): TableWriter {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  wb.title = doc.title;
  wb.description = doc.subtitle.join('\n');
  wb.creator = 'Fieldwork';
  const ws = wb.addWorksheet(sheetName(doc.title), { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = doc.columns.map((c) => ({ key: c.key, width: Math.min(Math.max(c.width, 4) + 2, 80) }));
  // One style object per column, shared by all its cells: exceljs caches a style's id by object
  // (a WeakMap in its StylesXform), so a shared one is looked up once; a cell's own style object
  // (exceljs gives each cell a fresh one) is serialised to XML for every cell to find its id —
  // measured: about a third of the writer's time at 100,000 rows.
  const styles: Array<Partial<ExcelJS.Style>> = doc.columns.map((c) => {
    const numFmt = excelNumFmt(c.kind, doc.locale);
    return numFmt ? { numFmt } : {};
  });

  // an output error: exceljs's archiver would stop; observe it so a pending drain wait rejects
  let failure: Error | undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    out.once('error', (e: Error) => {
      failure = e;
      reject(e);
    });
  });
  failed.catch(() => undefined);

  let started = false;
  let count = 0;
  const header = (): void => {
    if (started) return;
    started = true;
    const h = ws.addRow(doc.columns.map((c) => c.title));
    h.font = { bold: true };
    h.commit();
  };

  /** Adds one row; answers what to wait for before the next: the sheet entry's or the output's drain, a yield, or nothing. */
  const add = (row: ReportRow): Promise<void> | undefined => {
    if (failure) throw failure;
    header();
    const r = ws.addRow(doc.columns.map((c) => excelValue(row.values[c.key], c.kind, doc.locale)));
    for (let i = 0; i < styles.length; i++) r.getCell(i + 1).style = styles[i];
    r.commit();
    const entry = sheetEntry(ws);
    if (entry?._writableState?.needDrain) return drained(entry as unknown as Writable, failed);
    if (out.writableNeedDrain) return drained(out, failed);
    if (++count % YIELD_ROWS === 0) return new Promise<void>((resolve) => setImmediate(resolve));
    return undefined;
  };

  return {
    async row(row: ReportRow): Promise<void> {
      await add(row);
    },
    async rows(rows: readonly ReportRow[]): Promise<void> {
      // awaits only where a wait is due, not once per row
      for (const row of rows) {
        const wait = add(row);
        if (wait) await wait;
      }
    },
    async end(): Promise<void> {
      if (failure) throw failure;
      header();
      ws.commit();
      await Promise.race([wb.commit(), failed]);
    },
  };
}
