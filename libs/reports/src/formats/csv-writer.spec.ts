import { parse } from 'csv-parse/sync';
import type { ReportRow } from '../report-table';
import { openCsvWriter, type CsvOptions } from './csv-writer';
import { Collector, Counter, sampleDoc, US_LOCALE } from './spec-helpers';

const row: ReportRow = {
  values: {
    name: 'Ana, "the" driver',
    count: 3,
    ratio: -1.256,
    start: Date.UTC(2024, 2, 31, 1, 30),
    day: 20240331,
    at: Date.UTC(2024, 2, 31, 1, 30),
    spent: 3725,
    distance: 12345,
    speed: 10,
    done: true,
  },
};

async function csvOf(rows: ReportRow[], doc = sampleDoc(), options?: CsvOptions): Promise<string> {
  const out = new Collector();
  const w = openCsvWriter(doc, out, options);
  for (const r of rows) await w.row(r);
  await w.end();
  return out.buffer().toString('utf8');
}

describe('csv writer', () => {
  it('a header of titles, then cells in the requester formats (read back with csv-parse)', async () => {
    const text = await csvOf([row, { values: { name: 'Empty' } }]);
    const records = parse(text, { bom: true }) as string[][];
    expect(records[0]).toEqual(['Name', 'Count', 'Ratio', 'Start', 'Day', 'At', 'Spent (h:mm:ss)', 'Distance (km)', 'Speed (km/h)', 'Done']);
    expect(records[1]).toEqual(['Ana, "the" driver', '3', '-1.26', '2024-03-31 03:30', '2024-03-31', '03:30', '1:02:05', '12.35', '36.0', '✓']);
    expect(records[2]).toEqual(['Empty', '', '', '', '', '', '', '', '', '']);
    expect(records).toHaveLength(3);
  });

  it('starts with the UTF-8 byte-order mark by default, not with bom: false; CRLF line ends either way', async () => {
    const rows = [{ values: { name: 'Kovač, Višnjan' } }];
    for (const text of [await csvOf(rows), await csvOf(rows, sampleDoc(), { bom: true })]) {
      expect(Buffer.from(text, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(text.slice(1, 6)).toBe('Name,');
      expect(text.split('\r\n')[1]).toMatch(/^"Kovač, Višnjan",/);
    }
    const bare = await csvOf(rows, sampleDoc(), { bom: false });
    expect(bare.startsWith('Name,')).toBe(true);
    expect(bare.split('\r\n')).toHaveLength(3);
    expect(bare).not.toContain('\ufeff');
    // an empty report is still a file a spreadsheet reads as UTF-8
    expect(Buffer.from(await csvOf([]), 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('US units and formats', async () => {
    const records = parse(await csvOf([row], sampleDoc(US_LOCALE)), { bom: true }) as string[][];
    expect(records[0][7]).toBe('Distance (mi)');
    expect(records[1].slice(3, 9)).toEqual(['03/30/2024 9:30 PM', '03/31/2024', '9:30 PM', '1:02:05', '7.67', '22.4']);
  });

  it('only the header for no rows', async () => {
    expect(parse(await csvOf([]), { bom: true }) as string[][]).toEqual([sampleDoc().columns.map((c) => c.title)]);
  });

  it('text that a spreadsheet would evaluate comes out inert; numbers stay numbers', async () => {
    const cells = ['=HYPERLINK("http://x","y")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx', 'plain'];
    const records = parse(await csvOf(cells.map((name) => ({ values: { name, ratio: -5 } }))), { bom: true, relax_quotes: true }) as string[][];
    expect(records.slice(1).map((r) => r[0])).toEqual([`'=HYPERLINK("http://x","y")`, "'+1", "'-2+3", "'@SUM(A1)", "'\tx", "'\rx", 'plain']);
    expect(records.slice(1).map((r) => r[2])).toEqual(Array(7).fill('-5'));
  });

  it('row() waits for a slow output (backpressure) and every row arrives', async () => {
    const out = new Counter(1);
    const w = openCsvWriter(sampleDoc(), out);
    let maxBuffered = 0;
    for (let i = 0; i < 1500; i++) {
      await w.row(row);
      maxBuffered = Math.max(maxBuffered, out.writableLength);
    }
    await w.end();
    expect(out.bytes).toBeGreaterThan(1500 * 60);
    expect(maxBuffered).toBeLessThan(32 * 1024) // unbounded: ~130 KB;
  });

  it('an output error rejects the writer', async () => {
    const out = new Counter();
    out._write = (_c, _e, cb) => cb(new Error('disk full'));
    const w = openCsvWriter(sampleDoc(), out);
    await expect(
      (async () => {
        for (let i = 0; i < 10_000; i++) await w.row(row);
        await w.end();
      })(),
    ).rejects.toThrow('disk full');
  });
});
