import { boundingBox } from '@app/core/pure';
import type { Fix } from '@app/locations/pure';
import { gpxDocument } from '@app/locations/pure';
import type { ReportContext, ReportDefinition, ReportFile, ReportMember } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { FixDay, fixDays, gapSegments, memberDays, requireRange, trackRules } from './track-days';

/** The `gpx` report's table (one row per file; the report itself is the zip of the files). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'member', title: 'Member', kind: 'text', width: 24 },
  { key: 'date', title: 'Date', kind: 'date', width: 12 },
  { key: 'file', title: 'File', kind: 'text', width: 36 },
  { key: 'fixes', title: 'Fixes', kind: 'integer', width: 8 },
  { key: 'segments', title: 'Segments', kind: 'integer', width: 9 },
  { key: 'first', title: 'First fix', kind: 'datetime', width: 18 },
  { key: 'last', title: 'Last fix', kind: 'datetime', width: 18 },
];

/** A member's name for a file name: letters, digits, `.`, `_` and `-` kept (accents dropped), the rest `_`, at most 80 characters. */
export function fileStem(text: string): string {
  const ascii = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const stem = ascii
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+|_+$/g, '')
    .slice(0, 80);
  return stem || 'member';
}

/**
 * The names of a report's files: `<username or name, sanitised>_<YYYYMMDD>.gpx`; a name already
 * given (two members sanitised alike) gets `-2`, `-3`… before `.gpx`.
 */
export class GpxFileNames {
  private readonly used = new Set<string>();

  next(member: Pick<ReportMember, 'username' | 'name'>, day: number): string {
    const base = `${fileStem(member.username || member.name)}_${day}`;
    let name = `${base}.gpx`;
    for (let n = 2; this.used.has(name); n++) name = `${base}-${n}.gpx`;
    this.used.add(name);
    return name;
  }
}

/** `YYYY-MM-DD` of a YYYYMMDD day. */
const isoDay = (day: number) =>
  `${Math.floor(day / 10000)}-${String(Math.floor(day / 100) % 100).padStart(2, '0')}-${String(day % 100).padStart(2, '0')}`;

/**
 * One member's day as a GPX 1.1 document: every fix of the day in time order (`trkpt` with `ele`
 * and `time`), one `trkseg` per recording (cut at gaps ≥ `gapMs`); `metadata` named `<member name>
 * <YYYY-MM-DD>`, its time the first fix, its bounds the fixes' box. Built by the share links' GPX
 * writer (`gpxDocument`).
 * @param fixes the day's fixes, oldest first (at least one)
 */
export function dayGpx(memberName: string, day: number, fixes: readonly Fix[], gapMs: number): { xml: string; segments: number } {
  const segments = gapSegments(fixes, gapMs);
  const box = boundingBox(fixes)!;
  const xml = gpxDocument({
    name: `${memberName} ${isoDay(day)}`,
    time: fixes[0].ts,
    bounds: { latMin: box.minLat, latMax: box.maxLat, lngMin: box.minLng, lngMax: box.maxLng },
    type: 'fixes',
    segments: segments.map((s) => s.map((f) => ({ lat: f.lat, lng: f.lng, ts: f.ts, elv: f.elv }))),
  });
  return { xml, segments: segments.length };
}

interface GpxDay {
  member: ReportMember;
  fixDay: FixDay;
  name: string;
  xml: string;
  segments: number;
}

/** Every member's days with fixes, in request order then day order, each with its GPX and file name. */
async function* gpxDays(ctx: ReportContext): AsyncIterable<GpxDay> {
  const range = requireRange(ctx);
  const { gapMs } = trackRules(ctx);
  const names = new GpxFileNames();
  for (const member of ctx.members) {
    for await (const fixDay of fixDays(ctx.db, ctx.companyId, member, memberDays(range.from, range.until, member.timezone))) {
      const { xml, segments } = dayGpx(member.name, fixDay.day, fixDay.fixes, gapMs);
      yield { member, fixDay, name: names.next(member, fixDay.day), xml, segments };
    }
  }
}

/**
 * `gpx` (zip only): one GPX 1.1 file per member and day holding every accepted fix of that day in
 * time order, one `trkseg` per recording split at gaps ≥ 10 min (CONTRACTS.md "Reports"). Days are
 * the member's own (its time zone). A member-day without fixes has no file. `rows`: one per file
 * (the table the definition interface asks for; no format of this type shows it).
 */
export const GPX_REPORT: ReportDefinition = {
  type: 'gpx',
  title: 'GPX',
  columns: COLUMNS,
  async *rows(ctx: ReportContext): AsyncIterable<ReportRow> {
    for await (const d of gpxDays(ctx)) {
      const { fixes } = d.fixDay;
      yield {
        values: {
          member: d.member.name,
          date: d.fixDay.day,
          file: d.name,
          fixes: fixes.length,
          segments: d.segments,
          first: fixes[0].ts,
          last: fixes[fixes.length - 1].ts,
        },
        geometry: null,
      };
    }
  },
  async *files(ctx: ReportContext): AsyncIterable<ReportFile> {
    for await (const d of gpxDays(ctx)) yield { name: d.name, content: d.xml };
  },
};
