/**
 * Every report type's pdf keeps every value whole: the same rows written as csv and as pdf, the pdf's
 * text in content order (`pdftotext -raw`) holds every non-empty csv cell and every column title in
 * full (whitespace aside, so a value wrapped over lines counts; less the csv formula guard's `'`).
 * Rows are realistic fixtures built from each definition's columns (report-fixtures.ts); each type is
 * rendered with its default columns and with all of them (the widest tables, split over pages).
 */
import { parse } from 'csv-parse/sync';
import { REPORT_DEFINITIONS } from '../definitions';
import type { ReportDocument, ReportRow } from '../report-table';
import { REPORT_TYPES } from '../report-types';
import { reportColumns } from './cell-format';
import { openCsvWriter } from './csv-writer';
import { openPdfWriter } from './pdf-writer';
import { fixtureRows, pdfText } from './report-fixtures';
import type { TableWriter } from './table-writer';
import { Collector, SI_LOCALE, US_LOCALE } from './spec-helpers';

async function render(open: (doc: ReportDocument, out: Collector) => TableWriter, doc: ReportDocument, rows: ReportRow[]): Promise<Buffer> {
  const out = new Collector();
  const w = open(doc, out);
  await w.rows(rows);
  await w.end();
  return out.buffer();
}

const squeeze = (s: string): string => s.replace(/\s+/g, '');

describe.each(REPORT_TYPES.map((t) => [t]))('%s: the pdf holds every csv value whole', (type) => {
  const def = REPORT_DEFINITIONS[type];
  it.each([
    ['default columns', SI_LOCALE, undefined],
    ['all columns, US units', US_LOCALE, def.columns.map((c) => ({ key: c.key }))],
  ])('%s', async (_name, locale, requested) => {
    const doc: ReportDocument = {
      title: def.title,
      subtitle: ['Kovač Servis d.o.o.', 'From 27.11.2026 to 29.11.2026'],
      columns: reportColumns(def.columns, requested, { ...locale, unitDate: 'DD.MM.YYYY' }),
      locale: { ...locale, unitDate: 'DD.MM.YYYY' },
    };
    const rows = fixtureRows(def.columns, 40);
    const csv = parse((await render((d, out) => openCsvWriter(d, out), doc, rows)).toString('utf8'), { bom: true, relax_quotes: true }) as string[][];
    const text = squeeze(await pdfText(await render((d, out) => openPdfWriter(d, out), doc, rows)));
    const missing: string[] = [];
    for (const record of csv) {
      for (const cell of record) {
        const value = squeeze(cell.replace(/^'(?=[=+\-@\t\r])/, ''));
        if (value !== '' && !text.includes(value)) missing.push(cell);
      }
    }
    expect([...new Set(missing)]).toEqual([]);
    expect(csv).toHaveLength(rows.length + 1);
  });
});
