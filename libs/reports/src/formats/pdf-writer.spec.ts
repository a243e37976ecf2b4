import type { ReportDocument, ReportRow } from '../report-table';
import { openPdfWriter, resolvePdfFonts, type PdfFonts } from './pdf-writer';
import { pdfText } from './report-fixtures';
import { Collector, sampleDoc } from './spec-helpers';

async function pdfOf(rows: ReportRow[], fonts?: PdfFonts | null, doc: ReportDocument = sampleDoc()): Promise<Buffer> {
  const out = new Collector();
  const w = fonts === undefined ? openPdfWriter(doc, out) : openPdfWriter(doc, out, fonts);
  await w.rows(rows);
  await w.end();
  return out.buffer();
}

const squeeze = (s: string): string => s.replace(/\s+/g, '');
const LONG = 'A very long member name that cannot possibly fit into its column at all';
const rows = (n: number): ReportRow[] =>
  Array.from({ length: n }, (_, i) => ({
    values: {
      name: i === 3 ? LONG : `Member ${i}`,
      count: i,
      start: Date.UTC(2024, 2, 31, 1, 30),
      distance: 12345,
      done: i % 2 === 0,
    },
  }));


describe('pdf writer', () => {
  it('title, subtitle, the header on every page, page numbers and values (read by pdftotext)', async () => {
    const buf = await pdfOf(rows(200));
    expect(buf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = (await pdfText(buf, '-layout')).split('\f').filter((p) => p.trim() !== '');
    const raw = (await pdfText(buf)).split('\f').map(squeeze);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages[0]).toContain('Jobs');
    expect(pages[0]).toContain('Acme d.o.o.');
    for (const [i, page] of pages.entries()) {
      expect(page).toContain('Distance (km)');
      // an empty column's title wraps to its longest word, whole
      expect(raw[i]).toContain('Spent(h:mm:ss)');
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
    }
    expect(pages[0]).toMatch(/Member 0\s+0\s+2024-03-31 03:30\s+12\.35/);
    expect(pages[0]).not.toContain('…');
    expect(pages[pages.length - 1]).toContain('Member 199');
    if (resolvePdfFonts()) expect(pages[0]).toContain('✓');
  });

  it('a value wider than its column wraps inside it, whole (the row grows)', async () => {
    const raw = (await pdfText(await pdfOf(rows(5)))).replace(/\s+/g, ' ');
    expect(raw).toContain(LONG);
    expect(raw).not.toContain('…');
  });

  it('a narrow table is portrait, a wide one landscape', async () => {
    const doc = sampleDoc();
    const mediaBox = (buf: Buffer) => /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(buf.toString('latin1'))?.slice(1).map(Number);
    const narrow = await pdfOf(rows(3), undefined, { ...doc, columns: doc.columns.slice(0, 3) });
    expect(mediaBox(narrow)).toEqual([595.28, 841.89]);
    expect(squeeze(await pdfText(narrow))).toContain('Member0');
    const wideDoc: ReportDocument = { ...doc, columns: [...doc.columns, ...doc.columns.map((c) => ({ ...c, key: `${c.key}2`, title: `${c.title} again` }))] };
    const wide = await pdfOf(rows(3), undefined, wideDoc);
    expect(mediaBox(wide)).toEqual([841.89, 595.28]);
    expect(squeeze(await pdfText(wide))).toContain('Distance(km)again');
  });

  it('a table too wide for a landscape page is split into column groups, the key column repeated', async () => {
    const doc = sampleDoc();
    const columns = Array.from({ length: 30 }, (_, i) => ({ key: `c${i}`, title: `Column number ${i}`, kind: 'text' as const, width: 10 }));
    const wide: ReportDocument = { ...doc, columns };
    const r: ReportRow[] = Array.from({ length: 3 }, (_, i) => ({ values: Object.fromEntries(columns.map((c, j) => [c.key, j === 0 ? `Key ${i}` : `value ${i}/${j} with several words`])) }));
    const pages = (await pdfText(await pdfOf(r, undefined, wide), '-layout')).split('\f').filter((p) => p.trim() !== '');
    expect(pages.length).toBeGreaterThanOrEqual(2);
    for (const page of pages) {
      expect(page).toMatch(/Columns \d+–\d+ of 30/);
      expect(page).toContain('Key 2');
    }
    const all = pages.join('\n');
    for (let j = 1; j < 30; j++) expect(all).toContain(`value 1/${j} with`);
  });

  it('without DejaVu: Helvetica and X for checks', async () => {
    const text = await pdfText(await pdfOf(rows(2), null), '-layout');
    expect(text).toMatch(/Member 0 .* X/);
    expect(text).not.toContain('✓');
  });

  it('refuses more than 10,000 rows', async () => {
    const w = openPdfWriter(sampleDoc(), new Collector());
    const row: ReportRow = { values: { name: 'x' } };
    for (let i = 0; i < 10_000; i++) await w.row(row);
    await expect(w.row(row)).rejects.toThrow('too many rows for pdf (10001 > 10000): use xlsx or csv');
  }, 60_000);
});
