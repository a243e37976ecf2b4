import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ReportRow } from '../report-table';
import { openPdfWriter, resolvePdfFonts, type PdfFonts } from './pdf-writer';
import { Collector, sampleDoc } from './spec-helpers';

const run = promisify(execFile);

/** The pdf's text as pdftotext (poppler) reads it; pages separated by form feeds. */
async function pdfText(buf: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdf-'));
  try {
    const file = path.join(dir, 'r.pdf');
    await writeFile(file, buf);
    return (await run('pdftotext', ['-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function pdfOf(rows: ReportRow[], fonts?: PdfFonts | null): Promise<Buffer> {
  const out = new Collector();
  const w = fonts === undefined ? openPdfWriter(sampleDoc(), out) : openPdfWriter(sampleDoc(), out, fonts);
  for (const r of rows) await w.row(r);
  await w.end();
  return out.buffer();
}

const rows = (n: number): ReportRow[] =>
  Array.from({ length: n }, (_, i) => ({
    values: {
      name: i === 3 ? 'A very long member name that cannot possibly fit into its column at all' : `Member ${i}`,
      count: i,
      start: Date.UTC(2024, 2, 31, 1, 30),
      distance: 12345,
      done: i % 2 === 0,
    },
  }));

describe('pdf writer', () => {
  it('title, subtitle, the header on every page, page numbers and values (read by pdftotext)', async () => {
    const buf = await pdfOf(rows(100));
    expect(buf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = (await pdfText(buf)).split('\f').filter((p) => p.trim() !== '');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages[0]).toContain('Jobs');
    expect(pages[0]).toContain('Acme d.o.o.');
    for (const [i, page] of pages.entries()) {
      expect(page).toContain('Distance (km)');
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
    }
    expect(pages[0]).toMatch(/Member 0\s+0\s+2024-03-31 03:30\s+12\.35/);
    expect(pages[0]).toMatch(/A very long [^\n]*…/);
    expect(pages[0]).not.toContain('at all');
    expect(pages[0]).toContain('Done');
    expect(pages[pages.length - 1]).toContain('Member 99');
    if (resolvePdfFonts()) expect(pages[0]).toContain('✓');
  });

  it('without DejaVu: Helvetica and X for checks', async () => {
    const text = await pdfText(await pdfOf(rows(2), null));
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
