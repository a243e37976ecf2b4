/**
 * ZIP archives (PKWARE APPNOTE) through archiver 7 (`archiver('zip')`, deflate), streamed onto the
 * output: files are added one after another (a Readable is read when its turn comes), the central
 * directory is written by `end()`. Used for gpx (files the type builds) and timeallocation (one csv
 * per member: {@link writeGroupedCsvZip}).
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import archiver from 'archiver';
import type { ReportDocument, ReportRow } from '../report-table';
import { openCsvWriter, type CsvOptions } from './csv-writer';
import { outputFinished } from './stream-util';

/** A zip being written. */
export interface ZipWriter {
  /** Adds a file named `name` (a path inside the zip, `/`-separated). */
  addFile(name: string, content: string | Buffer | Readable): void;
  /** Writes the directory, ends the output; resolves when it has finished, rejects on an archiver or output error. */
  end(): Promise<void>;
}

/** Opens a zip onto `out`. */
export function openZipWriter(out: Writable): ZipWriter {
  const zip = archiver('zip', { zlib: { level: 6 } });
  const failed = new Promise<never>((_resolve, reject) => {
    zip.on('error', reject);
    zip.on('warning', reject);
  });
  failed.catch(() => undefined);
  const done = outputFinished(out);
  done.catch(() => undefined);
  zip.pipe(out);
  return {
    addFile(name, content) {
      zip.append(content, { name });
    },
    async end() {
      await Promise.race([zip.finalize(), failed]);
      await Promise.race([done, failed]);
    },
  };
}

/**
 * A file name safe in a zip on any system: no path separators or characters Windows refuses, no
 * control characters, no leading dots, at most 100 characters; `report` when nothing is left.
 */
export function zipFileName(name: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 100)
    .trim();
  return cleaned === '' ? 'report' : cleaned;
}

/**
 * Writes a zip of csv files onto `out`: one `<group>.csv` per run of rows with the same `group`
 * (rows arrive grouped in order; a group without a name is `doc.title`). Names are made zip-safe
 * ({@link zipFileName}); a name already used (a group coming back, or two groups cleaned to the same
 * name) gets ` (2)`, ` (3)`…. No rows: an empty zip. Each csv is as {@link openCsvWriter} writes it with `options` (its byte-order mark).
 * Resolves with the number of rows written.
 */
export async function writeGroupedCsvZip(doc: ReportDocument, rows: AsyncIterable<ReportRow>, out: Writable, options: CsvOptions = {}): Promise<number> {
  const zip = openZipWriter(out);
  const used = new Set<string>();
  const uniqueName = (group: string): string => {
    const base = zipFileName(group);
    let name = `${base}.csv`;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base} (${n}).csv`;
    used.add(name.toLowerCase());
    return name;
  };
  let current: { group: string; csv: ReturnType<typeof openCsvWriter> } | undefined;
  let count = 0;
  try {
    for await (const row of rows) {
      const group = row.group ?? doc.title;
      if (!current || current.group !== group) {
        if (current) await current.csv.end();
        const file = new PassThrough();
        zip.addFile(uniqueName(group), file);
        current = { group, csv: openCsvWriter(doc, file, options) };
      }
      await current.csv.row(row);
      count++;
    }
    if (current) await current.csv.end();
  } catch (e) {
    out.destroy(e as Error);
    throw e;
  }
  await zip.end();
  return count;
}
