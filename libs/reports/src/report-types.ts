/**
 * The spec's report table ("Reports: POST /api/createreport"): each type with its formats, maximum
 * range and what `accounts` must name. Pure data: the api checks requests against it before anything
 * is queued, the worker renders by it.
 */

/** The 17 report types, in the spec's order. */
export const REPORT_TYPES = [
  'jobs',
  'dayroute',
  'activities',
  'checkins',
  'gpx',
  'timesheet',
  'timeline',
  'worksheet',
  'timeallocation',
  'placeonsite',
  'memberonsite',
  'stopsreport',
  'mileage',
  'alerts',
  'statistics',
  'members',
  'places',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const REPORT_FORMATS = ['xlsx', 'csv', 'pdf', 'geojson', 'zip'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * What a type's range may be:
 * - a number: at most that many days (`until − from + 1`);
 * - `single`: one day (`day`, or `from` = `until`);
 * - `none`: no date filter (any dates given are ignored).
 */
export type ReportRange = number | 'single' | 'none';

/** What `accounts` names: members (required), places (required), or nothing (company-wide, ignored). */
export type ReportSubjects = 'members' | 'places' | 'none';

export interface ReportTypeRule {
  formats: readonly ReportFormat[];
  range: ReportRange;
  subjects: ReportSubjects;
  /** company-wide: a worker may not request it (CONTRACTS.md "Reports", roles) */
  companyWide: boolean;
}

/** The spec's table, row by row. */
export const REPORT_RULES: { readonly [T in ReportType]: ReportTypeRule } = {
  jobs: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 10_000, subjects: 'members', companyWide: false },
  dayroute: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 'single', subjects: 'members', companyWide: false },
  activities: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 30, subjects: 'members', companyWide: false },
  checkins: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 10_000, subjects: 'members', companyWide: false },
  gpx: { formats: ['zip'], range: 120, subjects: 'members', companyWide: false },
  timesheet: { formats: ['xlsx', 'pdf'], range: 120, subjects: 'members', companyWide: false },
  timeline: { formats: ['xlsx', 'csv'], range: 14, subjects: 'members', companyWide: false },
  worksheet: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 14, subjects: 'members', companyWide: false },
  timeallocation: { formats: ['xlsx', 'pdf', 'zip'], range: 14, subjects: 'members', companyWide: false },
  placeonsite: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 10_000, subjects: 'places', companyWide: true },
  memberonsite: { formats: ['xlsx', 'pdf'], range: 120, subjects: 'members', companyWide: false },
  stopsreport: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 120, subjects: 'members', companyWide: false },
  mileage: { formats: ['xlsx'], range: 10_000, subjects: 'members', companyWide: false },
  alerts: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 10_000, subjects: 'none', companyWide: true },
  statistics: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 10_000, subjects: 'members', companyWide: false },
  members: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 'none', subjects: 'members', companyWide: true },
  places: { formats: ['xlsx', 'csv', 'pdf', 'geojson'], range: 'none', subjects: 'places', companyWide: true },
};

/** Rows a pdf may hold (CONTRACTS.md "Reports"): more → -1 "too many rows for pdf (N > 10000): use xlsx or csv". */
export const PDF_MAX_ROWS = 10_000;

/** The `Content-Type` of each format (CONTRACTS.md "Reports"). */
export const REPORT_CONTENT_TYPES: { readonly [F in ReportFormat]: string } = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
  geojson: 'application/geo+json',
  zip: 'application/zip',
};

/**
 * The download's file name: `<type>_<from>_<until>.<ext>`, `<type>_<day>.<ext>` for one day,
 * `<type>.<ext>` for undated types (CONTRACTS.md "Reports").
 */
export function reportFileName(type: ReportType, format: ReportFormat, from?: number, until?: number): string {
  if (REPORT_RULES[type].range === 'none' || from === undefined || until === undefined) return `${type}.${format}`;
  return from === until ? `${type}_${from}.${format}` : `${type}_${from}_${until}.${format}`;
}
