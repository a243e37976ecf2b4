import type { ReportDefinition } from '../report-definition';
import type { ReportType } from '../report-types';
import { ACTIVITIES_REPORT } from './activities';
import { ALERTS_REPORT } from './alerts';
import { CHECKINS_REPORT } from './checkins';
import { DAYROUTE_REPORT } from './dayroute';
import { GPX_REPORT } from './gpx';
import { JOBS_REPORT } from './jobs';
import { MEMBERONSITE_REPORT } from './memberonsite';
import { MEMBERS_REPORT } from './members';
import { MILEAGE_REPORT } from './mileage';
import { PLACEONSITE_REPORT } from './placeonsite';
import { PLACES_REPORT } from './places';
import { STATISTICS_REPORT } from './statistics';
import { STOPS_REPORT } from './stopsreport';
import { TIMEALLOCATION_REPORT } from './timeallocation';
import { TIMELINE_REPORT } from './timeline';
import { TIMESHEET_REPORT } from './timesheet';
import { WORKSHEET_REPORT } from './worksheet';

/**
 * The 17 report types' definitions (columns and row sources), one module each beside this file, in
 * the spec's order. Total over {@link ReportType}: a type without its definition does not compile.
 */
export const REPORT_DEFINITIONS: { readonly [T in ReportType]: ReportDefinition } = {
  jobs: JOBS_REPORT,
  dayroute: DAYROUTE_REPORT,
  activities: ACTIVITIES_REPORT,
  checkins: CHECKINS_REPORT,
  gpx: GPX_REPORT,
  timesheet: TIMESHEET_REPORT,
  timeline: TIMELINE_REPORT,
  worksheet: WORKSHEET_REPORT,
  timeallocation: TIMEALLOCATION_REPORT,
  placeonsite: PLACEONSITE_REPORT,
  memberonsite: MEMBERONSITE_REPORT,
  stopsreport: STOPS_REPORT,
  mileage: MILEAGE_REPORT,
  alerts: ALERTS_REPORT,
  statistics: STATISTICS_REPORT,
  members: MEMBERS_REPORT,
  places: PLACES_REPORT,
};

/** The definition of `type`. */
export function definitionOf(type: ReportType): ReportDefinition {
  return REPORT_DEFINITIONS[type];
}
