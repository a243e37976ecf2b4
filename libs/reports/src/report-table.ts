/**
 * A report as a table: typed columns and rows of raw values. Each format writer renders the same table
 * its own way (xlsx real dates and numbers, csv/pdf text in the requester's formats, geojson
 * properties), so a type's content is written once. Pure types, safe in the render threads.
 */
import type { Geometry } from 'geojson';

/**
 * How a column's raw values are typed, and so how each format shows them:
 * - `text`: string;
 * - `integer` / `number`: number (`number` shown with up to 2 decimals);
 * - `coordinate`: a latitude or longitude in degrees (up to 6 decimals, ~0.1 m);
 * - `datetime`: ms since the epoch, shown in the requester's time zone, `unit_date` and `unit_time`;
 * - `date`: a day as YYYYMMDD, shown with `unit_date`;
 * - `time`: ms since the epoch, shown as the time of day only (requester's zone, `unit_time`);
 * - `duration`: seconds, shown as h:mm:ss (xlsx: a duration cell, `[h]:mm:ss`);
 * - `distance`: metres, shown in km or mi by `unit_distance` (2 decimals);
 * - `speed`: m/s, shown in km/h or mph by `unit_distance` (1 decimal);
 * - `check`: boolean, shown as ✓ or empty.
 */
export type ColumnKind = 'text' | 'integer' | 'number' | 'coordinate' | 'datetime' | 'date' | 'time' | 'duration' | 'distance' | 'speed' | 'check';

/** A column a type offers: its key (the spec's where it gives them), its default title and kind. */
export interface ColumnSpec {
  key: string;
  title: string;
  kind: ColumnKind;
  /** false: offered through `columns` but not in the default set */
  default?: boolean;
  /** width hint in characters for xlsx and pdf (else from the title) */
  width?: number;
}

/** A column as rendered: the request's `rename` applied, `isCheck` turned into kind `check`, the unit in the title. */
export interface ReportColumn {
  key: string;
  title: string;
  kind: ColumnKind;
  width: number;
}

/** A raw cell value; `null` (or a missing key) is an empty cell — never invented. */
export type CellValue = string | number | boolean | null;

/** One row: values by column key, and for geojson its geometry (`null`: a Feature without geometry, RFC 7946 §3.2). */
export interface ReportRow {
  values: Record<string, CellValue>;
  geometry?: Geometry | null;
  /** zip of csv files (timeallocation): the file this row goes to, e.g. the member's name */
  group?: string;
}

/** The requester's preferences every row follows (CONTRACTS.md "Reports"). */
export interface ReportLocale {
  /** IANA zone: the requester's, else the company's */
  timezone: string;
  unitTime: '12' | '24';
  /** a date pattern of YYYY, MM, DD (also M, D, YY) and separators, e.g. `YYYY-MM-DD`, `DD.MM.YYYY` */
  unitDate: string;
  unitDistance: 'SI' | 'US';
}

/** What a writer needs besides the rows. */
export interface ReportDocument {
  /** e.g. `Jobs` */
  title: string;
  /** lines under the title (pdf) and in the xlsx properties: company, range, time zone and units */
  subtitle: string[];
  columns: ReportColumn[];
  locale: ReportLocale;
}
