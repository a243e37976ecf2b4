/**
 * Reports as a client gets them, opened by readers other than their writers (issue "Reports", tests):
 * xlsx by SheetJS and a zip+XML read, csv by csv-parse, pdf by poppler's `pdftotext`, geojson by
 * `@placemarkio/check-geojson`, zip entries by yauzl, gpx by `xmllint --schema` against GPX 1.1.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { check as checkGeoJson } from '@placemarkio/check-geojson';
import { parse as parseCsv } from 'csv-parse/sync';
import * as XLSX from 'xlsx';
import * as yauzl from 'yauzl';
import type { TestApi } from './api';
import { GPX_FIXTURES_DIR } from './fixtures-dir';

/** A createreport/getreport answer: the file (status 200 with a non-JSON type) or the JSON body. */
export interface ReportAnswer {
  http: number;
  contentType: string;
  disposition: string;
  body: Buffer;
  /** the parsed JSON body when the answer is JSON */
  json?: { status: number; error?: string; reportId?: string; state?: string };
}

/** Calls `POST /api/<name>` (createreport, getreport) over real HTTP and keeps the raw bytes. */
export async function reportCall(
  api: Pick<TestApi, 'url'>,
  name: 'createreport' | 'getreport',
  data: unknown,
  key: string,
): Promise<ReportAnswer> {
  const res = await fetch(`${api.url}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': key },
    body: JSON.stringify({ data }),
  });
  const body = Buffer.from(await res.arrayBuffer());
  const contentType = res.headers.get('content-type') ?? '';
  const answer: ReportAnswer = { http: res.status, contentType, disposition: res.headers.get('content-disposition') ?? '', body };
  if (contentType.startsWith('application/json')) answer.json = JSON.parse(body.toString('utf8'));
  return answer;
}

/** createreport that must answer a file: throws with the JSON error otherwise. */
export async function reportFile(api: Pick<TestApi, 'url'>, data: Record<string, unknown>, key: string): Promise<ReportAnswer> {
  const a = await reportCall(api, 'createreport', data, key);
  if (a.http !== 200 || a.json)
    throw new Error(`createreport ${JSON.stringify(data)} → ${a.http} ${a.body.toString('utf8').slice(0, 500)}`);
  return a;
}

/** An xlsx's first sheet as rows of cells (SheetJS; dates as Date with `cellDates`), header row first. */
export function readXlsx(buf: Buffer): unknown[][] {
  const wb = XLSX.read(buf, { type: 'buffer', cellDates: true });
  const sheet = wb.Sheets[wb.SheetNames[0]];
  return XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
}

/** Every sheet of an xlsx by name (SheetJS), each as rows of cells. */
export function readXlsxSheets(buf: Buffer): Record<string, unknown[][]> {
  const wb = XLSX.read(buf, { type: 'buffer', cellDates: true });
  return Object.fromEntries(
    wb.SheetNames.map((n) => [n, XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[n], { header: 1, raw: true, defval: null })]),
  );
}

/** A csv as rows of strings (csv-parse), header row first; a UTF-8 BOM is stripped. */
export function readCsv(buf: Buffer): string[][] {
  return parseCsv(buf, { bom: true, relax_column_count: false }) as string[][];
}

/**
 * A pdf's text by `pdftotext -raw` (poppler-utils: content order), every whitespace run (line and page
 * breaks too) as one space: a value our pdf wraps over lines inside its cell reads whole.
 */
export function readPdfText(buf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'report-pdf-'));
  try {
    const file = path.join(dir, 'r.pdf');
    writeFileSync(file, buf);
    const r = spawnSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pdftotext failed: ${r.stderr}`);
    return r.stdout.replace(/\s+/g, ' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A GeoJSON FeatureCollection, checked against RFC 7946 by `@placemarkio/check-geojson` (throws when invalid). */
export function readGeoJson(buf: Buffer): GeoJSON.FeatureCollection {
  const fc = checkGeoJson(buf.toString('utf8')) as GeoJSON.GeoJSON;
  if (fc.type !== 'FeatureCollection') throw new Error(`not a FeatureCollection: ${fc.type}`);
  return fc;
}

/** A zip's entries (yauzl), name → bytes, in archive order. */
export async function readZip(buf: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, z) => (err || !z ? reject(err) : resolve(z))),
  );
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err);
        const parts: Buffer[] = [];
        stream.on('data', (c: Buffer) => parts.push(c));
        stream.on('end', () => {
          out.set(entry.fileName, Buffer.concat(parts));
          zip.readEntry();
        });
        stream.on('error', reject);
      });
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return out;
}

/** Validates a GPX document against the GPX 1.1 schema (`xmllint --schema test/fixtures/gpx/gpx.xsd`). @returns xmllint's stderr when invalid, else null */
export function gpxSchemaErrors(gpx: Buffer | string): string | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'report-gpx-'));
  try {
    const file = path.join(dir, 't.gpx');
    writeFileSync(file, gpx);
    const r = spawnSync('xmllint', ['--noout', '--schema', path.join(GPX_FIXTURES_DIR, 'gpx.xsd'), file], { encoding: 'utf8' });
    return r.status === 0 ? null : r.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The wall clock of instant `ms` in `zone`, as the UTC ms SheetJS gives back for an xlsx date cell
 * (the writer stores the requester's wall clock; tests run with TZ=UTC). Worked out with Intl here,
 * independently of the writer's own time code.
 */
export function wallClockMs(ms: number, zone: string): number {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(ms))
      .map((x) => [x.type, Number(x.value)]),
  );
  return Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second);
}

/** ms of an xlsx date cell as SheetJS reads it, to the second (Excel dates are float days: 12:00:00 may read as 11:59:59.999). */
export function xlsxDateMs(cell: unknown): number {
  if (!(cell instanceof Date)) throw new Error(`not a date cell: ${JSON.stringify(cell)}`);
  return Math.round(cell.getTime() / 1000) * 1000;
}
