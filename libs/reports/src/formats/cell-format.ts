/**
 * Cell values as the requester reads them: pure functions turning a raw {@link CellValue} of a
 * {@link ColumnKind} into numbers in the requester's units and text in the requester's formats
 * (CONTRACTS.md "Reports": every row uses the requester's time zone, `unit_time`, `unit_date` and
 * `unit_distance`). Used as text by the csv, pdf and geojson writers; the xlsx writer uses the
 * numeric helpers ({@link wallClock}, {@link convertDistance}, {@link convertSpeed}) and writes real
 * typed cells instead.
 *
 * Units in: datetime/time ms since the epoch; date a YYYYMMDD number; duration seconds; distance
 * metres; speed m/s. Units out: km or mi (2 decimals), km/h or mph (1 decimal), `h:mm:ss`.
 * A `null`/missing value is always the empty string (never invented); a value of an unexpected
 * type (e.g. a string in a datetime column) is shown as its own text rather than throwing.
 *
 * Time zones: `Intl.DateTimeFormat` with `timeZone` (the platform's ICU tz data), one cached
 * formatter per zone. An unknown zone throws a `RangeError` (from Intl) — the api validates zones.
 */
import type { CellValue, ColumnKind, ColumnSpec, ReportColumn, ReportLocale } from '../report-table';
import type { RequestedColumn } from '../report-run';
import { wallClock, type WallClock } from '@app/core/pure';

/** Metres in one international mile. */
export const METRES_PER_MILE = 1609.344;
/** m/s in one mph (1 mi / 3600 s). */
export const MPS_PER_MPH = METRES_PER_MILE / 3600;

/** The check mark a `check` cell shows when set. */
export const CHECK_MARK = '\u2713';

export { wallClock, type WallClock } from '@app/core/pure';

/** A YYYYMMDD day number as calendar fields (time 00:00:00). */
export function dayFields(yyyymmdd: number): WallClock {
  const n = Math.trunc(yyyymmdd);
  return { year: Math.trunc(n / 10000), month: Math.trunc(n / 100) % 100, day: n % 100, hour: 0, minute: 0, second: 0 };
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** A date under a `unitDate` pattern: tokens YYYY, YY, MM, M, DD, D; anything else is kept as a separator. */
export function formatDatePattern(c: WallClock, unitDate: string): string {
  let parts = datePatterns.get(unitDate);
  if (!parts) {
    if (datePatterns.size >= 100) datePatterns.clear();
    datePatterns.set(unitDate, (parts = unitDate.split(DATE_TOKENS)));
  }
  // split with a capturing group: separators at even indexes, tokens at odd ones
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) out += dateToken(c, parts[i]) + parts[i + 1];
  return out;
}

const DATE_TOKENS = /(YYYY|YY|MM|M|DD|D)/;
/** unitDate → the pattern split into separators and tokens, once per pattern (reports format ~10⁵ dates a file) */
const datePatterns = new Map<string, string[]>();

function dateToken(c: WallClock, token: string): string {
  switch (token) {
    case 'YYYY':
      return String(c.year).padStart(4, '0');
    case 'YY':
      return pad2(c.year % 100);
    case 'MM':
      return pad2(c.month);
    case 'M':
      return String(c.month);
    case 'DD':
      return pad2(c.day);
    default:
      return String(c.day);
  }
}

/** A time of day: `HH:mm` for '24', `h:mm AM/PM` for '12' (12:05 AM is just after midnight). */
export function formatTimeOfDay(c: WallClock, unitTime: '12' | '24'): string {
  if (unitTime === '24') return `${pad2(c.hour)}:${pad2(c.minute)}`;
  const h = c.hour % 12 === 0 ? 12 : c.hour % 12;
  return `${h}:${pad2(c.minute)} ${c.hour < 12 ? 'AM' : 'PM'}`;
}

/** Seconds as `h:mm:ss` (hours unbounded, rounded to whole seconds, `-` before negative ones). */
export function formatDuration(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  let s = Math.round(Math.abs(seconds));
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  return `${sign}${h}:${pad2(m)}:${pad2(s - m * 60)}`;
}

/** Metres → km ('SI') or mi ('US'), rounded to 2 decimals. */
export function convertDistance(metres: number, unit: ReportLocale['unitDistance']): number {
  return round(unit === 'US' ? metres / METRES_PER_MILE : metres / 1000, 2);
}

/** m/s → km/h ('SI') or mph ('US'), rounded to 1 decimal. */
export function convertSpeed(mps: number, unit: ReportLocale['unitDistance']): number {
  return round(unit === 'US' ? mps / MPS_PER_MPH : mps * 3.6, 1);
}

/**
 * Rounds half away from zero to `decimals` as written in decimal (1.005 → 1.01, though the binary
 * 1.005 is a hair below: the scaled value is read at 15 significant digits first); -0 becomes 0.
 */
export function round(v: number, decimals: number): number {
  const f = 10 ** decimals;
  const r = (Math.sign(v) * Math.round(Number((Math.abs(v) * f).toPrecision(15)))) / f;
  return r === 0 ? 0 : r;
}

/**
 * Whether a `check` cell is set: `true`, a non-zero number or a non-empty string (a column turned
 * into a check with `isCheck` shows ✓ where it holds a value); `false`, 0, '' and `null` are not.
 */
export function isChecked(v: CellValue | undefined): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  return v !== '';
}

/** A raw value of `kind` as text under `locale` ('' for null/missing). */
export function formatCell(v: CellValue | undefined, kind: ColumnKind, locale: ReportLocale): string {
  if (kind === 'check') return isChecked(v) ? CHECK_MARK : '';
  if (v === null || v === undefined) return '';
  if (typeof v !== 'number') return String(v);
  if (!Number.isFinite(v)) return '';
  switch (kind) {
    case 'datetime': {
      const c = wallClock(v, locale.timezone);
      return `${formatDatePattern(c, locale.unitDate)} ${formatTimeOfDay(c, locale.unitTime)}`;
    }
    case 'date':
      return formatDatePattern(dayFields(v), locale.unitDate);
    case 'time':
      return formatTimeOfDay(wallClock(v, locale.timezone), locale.unitTime);
    case 'duration':
      return formatDuration(v);
    case 'distance':
      return convertDistance(v, locale.unitDistance).toFixed(2);
    case 'speed':
      return convertSpeed(v, locale.unitDistance).toFixed(1);
    case 'integer':
      return String(Math.round(v));
    case 'number':
      return String(round(v, 2));
    case 'coordinate':
      return String(round(v, 6));
    case 'text':
      return String(v);
  }
}

/**
 * A raw value as a geojson property: distance/speed converted numbers, numbers rounded like
 * {@link formatCell}, datetime/date/time/duration as formatted text, check as a boolean, text as is,
 * `null` for an empty cell.
 */
export function propertyValue(v: CellValue | undefined, kind: ColumnKind, locale: ReportLocale): CellValue {
  if (kind === 'check') return isChecked(v);
  if (v === null || v === undefined) return null;
  if (typeof v !== 'number') return kind === 'text' ? v : String(v);
  if (!Number.isFinite(v)) return null;
  switch (kind) {
    case 'distance':
      return convertDistance(v, locale.unitDistance);
    case 'speed':
      return convertSpeed(v, locale.unitDistance);
    case 'integer':
      return Math.round(v);
    case 'number':
      return round(v, 2);
    case 'coordinate':
      return round(v, 6);
    case 'text':
      return v;
    case 'datetime':
    case 'date':
    case 'time':
    case 'duration':
      return formatCell(v, kind, locale);
  }
}

/** The unit a title states for `kind` under `locale`, or undefined: km/mi, km/h/mph, h:mm:ss. */
export function columnUnit(kind: ColumnKind, locale: ReportLocale): string | undefined {
  if (kind === 'distance') return locale.unitDistance === 'US' ? 'mi' : 'km';
  if (kind === 'speed') return locale.unitDistance === 'US' ? 'mph' : 'km/h';
  if (kind === 'duration') return 'h:mm:ss';
  return undefined;
}

/** A column's title with its unit, e.g. "Distance (km)", "Speed (mph)", "Duration (h:mm:ss)". */
export function columnTitle(spec: { title: string; kind: ColumnKind }, locale: ReportLocale): string {
  const unit = columnUnit(spec.kind, locale);
  return unit ? `${spec.title} (${unit})` : spec.title;
}


/** Narrowest width in characters a kind's text needs (xlsx/pdf), whatever its title. */
const MIN_WIDTH: { readonly [K in ColumnKind]: number } = {
  text: 8,
  integer: 6,
  number: 8,
  coordinate: 10,
  datetime: 17,
  date: 10,
  time: 8,
  duration: 8,
  distance: 8,
  speed: 6,
  check: 4,
};

/**
 * The rendered columns: the type's default set (specs without `default: false`, in spec order) when
 * nothing is requested (undefined or empty), else the requested ones in request order with `rename`
 * and `isCheck` applied and the unit appended. Width in characters: `spec.width`, else the title's
 * length (at least the kind's minimum). Throws `Error` naming a key the type does not offer (the api
 * checks keys before queueing, so this is a programming error here).
 */
export function reportColumns(
  specs: readonly ColumnSpec[],
  requested: readonly RequestedColumn[] | undefined,
  locale: ReportLocale,
): ReportColumn[] {
  const byKey = new Map(specs.map((s) => [s.key, s]));
  const chosen: { spec: ColumnSpec; req?: RequestedColumn }[] =
    requested && requested.length > 0
      ? requested.map((req) => {
          const spec = byKey.get(req.key);
          if (!spec) throw new Error(`unknown report column "${req.key}"`);
          return { spec, req };
        })
      : specs.filter((s) => s.default !== false).map((spec) => ({ spec }));
  return chosen.map(({ spec, req }) => {
    const kind: ColumnKind = req?.isCheck ? 'check' : spec.kind;
    const base = req?.rename !== undefined && req.rename !== '' ? req.rename : spec.title;
    // the unit belongs to the value shown: a check column has none
    const title = columnTitle({ title: base, kind }, locale);
    return { key: spec.key, title, kind, width: spec.width ?? Math.max(title.length, MIN_WIDTH[kind]) };
  });
}
