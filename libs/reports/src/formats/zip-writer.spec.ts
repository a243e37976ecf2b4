import { parse } from 'csv-parse/sync';
import type { ReportRow } from '../report-table';
import { Collector, sampleDoc, unzip } from './spec-helpers';
import { openZipWriter, writeGroupedCsvZip, zipFileName } from './zip-writer';
import { Readable } from 'node:stream';

async function* from(rows: ReportRow[]): AsyncIterable<ReportRow> {
  for (const r of rows) yield await Promise.resolve(r);
}

describe('zip writer', () => {
  it('files from strings, Buffers and streams, read back with yauzl', async () => {
    const out = new Collector();
    const zip = openZipWriter(out);
    zip.addFile('a.txt', 'alpha');
    zip.addFile('dir/b.bin', Buffer.from([1, 2, 3]));
    zip.addFile('c.txt', Readable.from(['gam', 'ma']));
    await zip.end();
    const files = await unzip(out.buffer());
    expect([...files.keys()]).toEqual(['a.txt', 'dir/b.bin', 'c.txt']);
    expect(files.get('a.txt')!.toString()).toBe('alpha');
    expect([...files.get('dir/b.bin')!]).toEqual([1, 2, 3]);
    expect(files.get('c.txt')!.toString()).toBe('gamma');
  });

  it('one csv per group, names cleaned and unique', async () => {
    const out = new Collector();
    const rows: ReportRow[] = [
      { group: 'Ana Novak', values: { name: 'a1' } },
      { group: 'Ana Novak', values: { name: 'a2' } },
      { group: '../Bob/Smith', values: { name: 'b1' } },
      { group: '.._Bob_Smith', values: { name: 'c1' } },
      { group: 'Ana Novak', values: { name: 'a3' } },
    ];
    expect(await writeGroupedCsvZip(sampleDoc(), from(rows), out)).toBe(5);
    const files = await unzip(out.buffer());
    expect([...files.keys()]).toEqual(['Ana Novak.csv', '_Bob_Smith.csv', '_Bob_Smith (2).csv', 'Ana Novak (2).csv']);
    const ana = parse(files.get('Ana Novak.csv')!.toString(), { bom: true }) as string[][];
    expect(ana[0][0]).toBe('Name');
    expect(ana.slice(1).map((r) => r[0])).toEqual(['a1', 'a2']);
    expect((parse(files.get('Ana Novak (2).csv')!.toString(), { bom: true }) as string[][])[1][0]).toBe('a3');
    expect(files.get('Ana Novak.csv')!.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('bom: false leaves the byte-order mark out of every csv', async () => {
    const out = new Collector();
    await writeGroupedCsvZip(sampleDoc(), from([{ group: 'Ana', values: { name: 'a1' } }]), out, { bom: false });
    expect((await unzip(out.buffer())).get('Ana.csv')!.toString('utf8').startsWith('Name,')).toBe(true);
  });

  it('an empty zip for no rows', async () => {
    const out = new Collector();
    expect(await writeGroupedCsvZip(sampleDoc(), from([]), out)).toBe(0);
    expect((await unzip(out.buffer())).size).toBe(0);
  });

  it('zip-safe names', () => {
    expect(zipFileName('a/b\\c:d*?"<>|')).toBe('a_b_c_d_');
    expect(zipFileName('...')).toBe('report');
    expect(zipFileName('x'.repeat(300))).toHaveLength(100);
  });
});
