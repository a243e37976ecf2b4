/**
 * The format writers: {@link openTableWriter} picks one by format; zips are built with
 * {@link openZipWriter} (gpx) or {@link writeGroupedCsvZip} (timeallocation). No Nest, no TypeORM:
 * these run in the worker's report threads.
 */
import type { Writable } from 'node:stream';
import type { ReportDocument } from '../report-table';
import { openCsvWriter, type CsvOptions } from './csv-writer';
import { openGeojsonWriter } from './geojson-writer';
import { openPdfWriter } from './pdf-writer';
import type { TableFormat, TableWriter } from './table-writer';
import { openXlsxWriter } from './xlsx-writer';

/** Opens the writer of `format` for `doc` onto `out`; `options` are the csv's (its byte-order mark). */
export function openTableWriter(format: TableFormat, doc: ReportDocument, out: Writable, options: CsvOptions = {}): TableWriter {
  switch (format) {
    case 'xlsx':
      return openXlsxWriter(doc, out);
    case 'csv':
      return openCsvWriter(doc, out, options);
    case 'pdf':
      return openPdfWriter(doc, out);
    case 'geojson':
      return openGeojsonWriter(doc, out);
  }
}

export { openCsvWriter, escapeFormula, type CsvOptions } from './csv-writer';
export { openGeojsonWriter } from './geojson-writer';
export { openPdfWriter, resolvePdfFonts, type PdfFonts } from './pdf-writer';
export { openXlsxWriter, sheetName } from './xlsx-writer';
export { openZipWriter, writeGroupedCsvZip, zipFileName, type ZipWriter } from './zip-writer';
export * from './cell-format';
