/** Test helpers of the format specs (not exported by the lib): outputs to collect or count bytes, and a sample table. */
import { Writable } from 'node:stream';
import * as yauzl from 'yauzl';
import type { ReportDocument, ReportLocale } from '../report-table';

/** A Writable keeping every byte; `buffer()` once finished. */
export class Collector extends Writable {
  private chunks: Buffer[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.chunks.push(Buffer.from(chunk));
    cb();
  }
  buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** A Writable discarding bytes, counting them; `delayMs` per chunk makes it a slow consumer. */
export class Counter extends Writable {
  bytes = 0;
  constructor(private readonly delayMs = 0) {
    super({ highWaterMark: 16 * 1024 });
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.bytes += chunk.length;
    if (this.delayMs > 0) setTimeout(cb, this.delayMs);
    else cb();
  }
}

export const SI_LOCALE: ReportLocale = { timezone: 'Europe/Ljubljana', unitTime: '24', unitDate: 'YYYY-MM-DD', unitDistance: 'SI' };
export const US_LOCALE: ReportLocale = { timezone: 'America/New_York', unitTime: '12', unitDate: 'MM/DD/YYYY', unitDistance: 'US' };

/** A table with one column of each kind. */
export function sampleDoc(locale: ReportLocale = SI_LOCALE): ReportDocument {
  const unit = locale.unitDistance === 'US';
  return {
    title: 'Jobs',
    subtitle: ['Acme d.o.o.', '2024-03-01 – 2024-03-31', `Time zone ${locale.timezone}`],
    locale,
    columns: [
      { key: 'name', title: 'Name', kind: 'text', width: 20 },
      { key: 'count', title: 'Count', kind: 'integer', width: 6 },
      { key: 'ratio', title: 'Ratio', kind: 'number', width: 8 },
      { key: 'start', title: 'Start', kind: 'datetime', width: 17 },
      { key: 'day', title: 'Day', kind: 'date', width: 10 },
      { key: 'at', title: 'At', kind: 'time', width: 8 },
      { key: 'spent', title: 'Spent (h:mm:ss)', kind: 'duration', width: 15 },
      { key: 'distance', title: unit ? 'Distance (mi)' : 'Distance (km)', kind: 'distance', width: 13 },
      { key: 'speed', title: unit ? 'Speed (mph)' : 'Speed (km/h)', kind: 'speed', width: 12 },
      { key: 'done', title: 'Done', kind: 'check', width: 4 },
    ],
  };
}

/** Every entry of a zip (read with yauzl, not the writer's library), by name. */
export function unzip(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const files = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
