/**
 * Test helpers (not exported by the lib): realistic rows for any report type, built from its
 * definition's columns — the long values a tester meets (addresses, phone numbers, scheduled windows,
 * route info, six-decimal coordinates, long names, dates, ids), and some empty cells. Also
 * `pdftotext` (poppler-utils, installed by scripts/test-tools.sh) over a pdf buffer.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CellValue, ColumnSpec, ReportRow } from '../report-table';

const run = promisify(execFile);

/** The pdf's text as `pdftotext` reads it (`-raw`: content order, so a wrapped value is contiguous; `-layout`: as laid out). */
export async function pdfText(buf: Buffer, mode: '-raw' | '-layout' = '-raw'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdf-'));
  try {
    const file = path.join(dir, 'r.pdf');
    await writeFile(file, buf);
    return (await run('pdftotext', [mode, '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const MEMBERS = ['Marija Kovač-Horvatinović', 'Ana Novak', 'Jean-Baptiste Villeneuve-Saint-Georges', 'Bo'];
const ADDRESSES = [
  'Ulica Pod gozdom 12, 52447 Višnjan, Istarska županija, Hrvatska',
  'Trg republike 3, 1000 Ljubljana',
  'Avenue des Champs-Élysées 101, 75008 Paris, France',
];
const BASE_MS = Date.UTC(2026, 10, 27, 7, 5, 42);

/** A text value for a column key: what such a column holds in production, long where it can be. */
function textValue(key: string, i: number): string | null {
  const k = key.toLowerCase();
  if (k === 'member' || k === 'name' || k === 'creator' || k === 'approvedby' || k === 'contact_name' || k === 'signature_name') return MEMBERS[i % MEMBERS.length];
  if (k.includes('address')) return ADDRESSES[i % ADDRESSES.length];
  if (k.includes('phone')) return i % 2 ? '+385 52 449 123 ext. 4521' : '+1 (212) 555-0187';
  if (k.includes('email')) return 'marija.kovac-horvatinovic@dispatch.example.com';
  if (k === 'scheduled_window') return i % 3 === 2 ? 'from 08:00' : '08:00–10:00';
  if (k === 'routeinfo') return '0.80 km, 0:12:00; stop 3 of 14';
  if (k === 'status' || k === 'approvalstatus') return ['scheduled', 'checked in', 'done (success)', 'cancelled'][i % 4];
  if (k === 'check_ins' || k === 'check_outs') return '27.11.2026 08:05; 27.11.2026 13:42';
  if (k.endsWith('uid') || k.endsWith('_id') || k === 'uid') return `0d9f6c2e-7b1a-4c53-9e3f-${String(123456789012 + i).padStart(12, '0')}`;
  if (k === 'timezone') return 'America/Argentina/Buenos_Aires';
  if (k === 'teams' || k === 'skills') return 'North Istria, Service & Maintenance, Night shift';
  if (k === 'place' || k === 'from' || k === 'to' || k === 'zone') return i % 2 ? 'Višnjan Warehouse — loading dock B' : '45.123456, 13.654321';
  if (k === 'message') return `Marija Kovač-Horvatinović checked out of Višnjan Warehouse — loading dock B at 17:42 (row ${i})`;
  if (k === 'notes' || k === 'comments' || k === 'comment' || k === 'response' || k === 'status_response') return '=SUM(A1:A9) is not a formula here; ring twice, the gate code is 4471#';
  if (k === 'public_url' || k === 'file' || k === 'attachments') return `https://fieldwork.example.com/share/a7f3c9e1b2d4/${i}/photo-of-the-boiler.jpg`;
  if (k === 'custom_fields' || k === 'form_fields' || k === 'manual_checks') return 'Boiler model: Vaillant ecoTEC plus; Serial: 21154300100293475';
  if (k === 'city') return 'Višnjan';
  if (k === 'postalcode') return '52447';
  if (k === 'country_code') return 'HR';
  if (k === 'color') return '#1e88e5';
  if (k === 'row') return i % 5 === 4 ? 'total' : 'visit';
  if (k === 'kind' || k === 'activity' || k === 'event' || k === 'check_type') return ['job', 'place', 'drive', 'stop'][i % 4];
  if (k === 'role') return 'administrator';
  if (k === 'username') return `marija.kovac.${i}@dispatch.example.com`;
  if (k === 'purpose' || k === 'placesheet') return null; // held nowhere: empty
  return `${key} value ${i}: Kovač & Višnjan`;
}

/** A raw value of `spec` for row `i` (some cells empty, as reports have them). */
export function fixtureValue(spec: ColumnSpec, i: number): CellValue {
  if ((i + spec.key.length) % 7 === 0) return null;
  switch (spec.kind) {
    case 'text':
      return textValue(spec.key, i);
    case 'integer':
      return 1000 + i * 37;
    case 'number':
      return 1234.5 + i / 3;
    case 'coordinate':
      return spec.key.startsWith('lat') ? 45.123456 + i / 1e6 : -13.654321 - i / 1e6;
    case 'datetime':
    case 'time':
      return BASE_MS + i * 3_600_000;
    case 'date':
      return 20261127 + (i % 3);
    case 'duration':
      return 37230 + i * 61;
    case 'distance':
      return 123456.7 + i * 10;
    case 'speed':
      return 13.9 + i / 10;
    case 'check':
      return i % 2 === 0;
  }
}

/** `n` rows holding a value for every column in `specs`. */
export function fixtureRows(specs: readonly ColumnSpec[], n: number): ReportRow[] {
  return Array.from({ length: n }, (_, i) => ({ values: Object.fromEntries(specs.map((s) => [s.key, fixtureValue(s, i)])) }));
}
