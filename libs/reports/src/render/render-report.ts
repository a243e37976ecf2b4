import type { Writable } from 'node:stream';
import { definitionOf } from '../definitions';
import { dayFields, formatDatePattern, openTableWriter, type CsvOptions, openZipWriter, reportColumns, writeGroupedCsvZip } from '../formats';
import type { ReportContext } from '../report-definition';
import { tooManyRowsForPdf } from '../report-errors';
import type { ReportDocument } from '../report-table';
import type { RequestedColumn } from '../report-run';
import { PDF_MAX_ROWS, ReportFormat, ReportType } from '../report-types';

/**
 * The lines under a report's title: company, range (its YYYYMMDD days, company days, written with the
 * requester's `unit_date`: `Day 27.11.2026`, `From 11/01/2026 to 11/30/2026`), time zone and units.
 */
export function subtitleOf(ctx: ReportContext): string[] {
  const { locale } = ctx;
  const day = (d: number) => formatDatePattern(dayFields(d), locale.unitDate);
  const lines = [ctx.company.name];
  if (ctx.range) lines.push(ctx.range.from === ctx.range.until ? `Day ${day(ctx.range.from)}` : `From ${day(ctx.range.from)} to ${day(ctx.range.until)}`);
  lines.push(`Time zone ${locale.timezone}; distances in ${locale.unitDistance === 'US' ? 'mi' : 'km'}; requested by ${ctx.requester.name}`);
  return lines;
}

/**
 * Renders one report onto `out` in `format`, streaming: rows come from the definition's cursor and
 * go to the format writer one at a time (awaiting its backpressure), or a batch at a time where the
 * type has `batches`. `zip` is the definition's own
 * files (gpx) or one csv per row group (timeallocation). `csv`: the csv files' options (byte-order mark).
 * @returns the rows (or files) rendered
 * @throws DomainError invalid "too many rows for pdf" past {@link PDF_MAX_ROWS} rows (the count the
 *   api checked was an estimate, or data grew since)
 */
export async function renderReport(
  context: ReportContext,
  format: ReportFormat,
  type: ReportType,
  columns: RequestedColumn[] | undefined,
  out: Writable,
  csv: CsvOptions = {},
): Promise<number> {
  const definition = definitionOf(type);
  const doc: ReportDocument = {
    title: definition.title,
    subtitle: subtitleOf(context),
    columns: reportColumns(definition.columns, columns, context.locale),
    locale: context.locale,
  };
  const ctx: ReportContext = { ...context, output: { keys: new Set(doc.columns.map((c) => c.key)), geometry: format === 'geojson' } };
  if (format === 'zip') {
    if (definition.files) {
      const zip = openZipWriter(out);
      let files = 0;
      for await (const file of definition.files(ctx)) {
        await zip.addFile(file.name, file.content);
        files++;
      }
      await zip.end();
      return files;
    }
    return writeGroupedCsvZip(doc, definition.rows(ctx), out, csv);
  }
  const writer = openTableWriter(format, doc, out, csv);
  let rows = 0;
  if (definition.batches) {
    for await (const batch of definition.batches(ctx)) {
      if (format === 'pdf' && rows + batch.length > PDF_MAX_ROWS) throw tooManyRowsForPdf(rows + batch.length);
      await writer.rows(batch);
      rows += batch.length;
    }
  } else {
    for await (const row of definition.rows(ctx)) {
      if (format === 'pdf' && rows === PDF_MAX_ROWS) throw tooManyRowsForPdf(rows + 1);
      await writer.row(row);
      rows++;
    }
  }
  await writer.end();
  return rows;
}
