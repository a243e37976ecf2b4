import v8 from 'node:v8';
import vm from 'node:vm';
import * as XLSX from 'xlsx';
import type { ReportRow } from '../report-table';
import { Collector, Counter, sampleDoc, unzip, US_LOCALE } from './spec-helpers';
import { excelDateFormat, openXlsxWriter, sheetName } from './xlsx-writer';

const row: ReportRow = {
  values: {
    name: 'Ana',
    count: 3,
    ratio: -1.256,
    start: Date.UTC(2024, 2, 31, 1, 30), // 03:30 CEST
    day: 20240331,
    at: Date.UTC(2024, 2, 31, 1, 30),
    spent: 90_000, // 25 h
    distance: 12345,
    speed: 10,
    done: true,
  },
};

async function xlsxOf(rows: ReportRow[], doc = sampleDoc()): Promise<Buffer> {
  const out = new Collector();
  const w = openXlsxWriter(doc, out);
  for (const r of rows) await w.row(r);
  await w.end();
  return out.buffer();
}

describe('xlsx writer', () => {
  it('typed cells read back by SheetJS: dates as dates, numbers as numbers, the header first', async () => {
    const buf = await xlsxOf([row, { values: { name: 'Empty' } }]);
    const wb = XLSX.read(buf, { type: 'buffer', cellDates: true, cellNF: true });
    expect(wb.SheetNames).toEqual(['Jobs']);
    const ws = wb.Sheets.Jobs;
    expect(['A1', 'B1', 'G1', 'H1', 'J1'].map((a) => ws[a].v)).toEqual(['Name', 'Count', 'Spent (h:mm:ss)', 'Distance (km)', 'Done']);
    expect(ws.A2).toMatchObject({ t: 's', v: 'Ana' });
    expect(ws.B2).toMatchObject({ t: 'n', v: 3 });
    expect(ws.C2).toMatchObject({ t: 'n', v: -1.26 });
    expect(ws.D2.t).toBe('d');
    expect((ws.D2.v as Date).toISOString()).toBe('2024-03-31T03:30:00.000Z'); // the Ljubljana wall clock
    expect(ws.D2.z).toBe('yyyy-mm-dd hh:mm');
    expect(ws.E2.t).toBe('d');
    expect((ws.E2.v as Date).toISOString()).toBe('2024-03-31T00:00:00.000Z');
    expect(ws.G2.z).toBe('[h]:mm:ss');
    expect(ws.G2.w).toBe('25:00:00');
    expect(ws.H2).toMatchObject({ t: 'n', v: 12.35, z: '0.00' });
    expect(ws.I2).toMatchObject({ t: 'n', v: 36, z: '0.0' });
    expect(ws.J2).toMatchObject({ t: 's', v: '✓' });
    expect(ws.A3.v).toBe('Empty');
    expect(ws.B3).toBeUndefined();
    expect(ws.J3).toBeUndefined();
  });

  it('US formats', async () => {
    const wb = XLSX.read(await xlsxOf([row], sampleDoc(US_LOCALE)), { type: 'buffer', cellDates: true, cellNF: true });
    const ws = wb.Sheets.Jobs;
    expect(ws.D2.z).toBe('mm/dd/yyyy h:mm AM/PM');
    expect((ws.D2.v as Date).toISOString()).toBe('2024-03-30T21:30:00.000Z');
    expect(ws.H2.v).toBe(7.67);
    expect(ws.I2.v).toBe(22.4);
  });

  it('a frozen, bold header and column widths in the sheet XML', async () => {
    const files = await unzip(await xlsxOf([row]));
    const sheet = files.get('xl/worksheets/sheet1.xml')!.toString('utf8');
    expect(sheet).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"|<pane [^>]*state="frozen"[^>]*ySplit="1"/);
    expect(sheet).toMatch(/<col [^>]*width="22"/);
    const styles = files.get('xl/styles.xml')!.toString('utf8');
    expect(styles).toMatch(/<font>\s*<b\/>|<font><b\/>/);
  });

  it('text that looks like a formula stays a string: no <f> element', async () => {
    const evil = '=HYPERLINK("http://x","y")';
    const buf = await xlsxOf([{ values: { name: evil, count: -2 } }, { values: { name: '+1' } }, { values: { name: '@SUM(A1)' } }]);
    const sheet = (await unzip(buf)).get('xl/worksheets/sheet1.xml')!.toString('utf8');
    expect(sheet).not.toMatch(/<f[ >]/);
    const ws = XLSX.read(buf, { type: 'buffer' }).Sheets.Jobs;
    expect(ws.A2).toMatchObject({ t: 's', v: evil });
    expect(ws.A2.f).toBeUndefined();
    expect(ws.B2).toMatchObject({ t: 'n', v: -2 });
  });

  it('sheet names and date formats Excel accepts', () => {
    expect(sheetName('Time/allocation: [a]?')).toBe('Time_allocation_ _a__');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(sheetName('')).toBe('Report');
    expect(excelDateFormat('DD.MM.YYYY')).toBe('dd.mm.yyyy');
    expect(excelDateFormat('YYYY年M月D日')).toBe('yyyy\\年m\\月d\\日');
  });

  // exceljs 4.4 ignores the zip's backpressure (see xlsx-writer.ts): without the writer's waits ~56 MB stay retained at 80,000 rows
  it('100,000 rows retain under 20 MB of heap and Buffers (measured after forced GCs)', async () => {
    // a GC before each reading, so garbage not yet collected (which depends on the machine's load) does not count
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const used = (): number => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const before = used();
    const out = new Counter();
    const w = openXlsxWriter(sampleDoc(), out);
    let peak = 0;
    for (let i = 0; i < 100_000; i++) {
      await w.row({ values: { ...row.values, name: `Member ${i}`, count: i } });
      if (i % 5000 === 0) peak = Math.max(peak, used() - before);
    }
    await w.end();
    expect(out.bytes).toBeGreaterThan(1_000_000);
    expect(peak).toBeLessThan(20 * 1024 * 1024);
  }, 120_000); // ~8 s on a quiet 2-core machine; far longer while other work loads it
});
