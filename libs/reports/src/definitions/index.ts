import type { ReportDefinition } from '../report-definition';
import type { ReportType } from '../report-types';
import { ALERTS_REPORT } from './alerts';
import { GPX_REPORT } from './gpx';
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

/**
 * The report types' definitions (columns and row sources), one module each beside this file. A type
 * without a definition yet is refused by createreport with -1 "not available yet".
 */
export const REPORT_DEFINITIONS: { readonly [T in ReportType]?: ReportDefinition } = {
  gpx: GPX_REPORT,
  timeline: TIMELINE_REPORT,
  stopsreport: STOPS_REPORT,
  mileage: MILEAGE_REPORT,
  alerts: ALERTS_REPORT,
  members: MEMBERS_REPORT,
  timesheet: TIMESHEET_REPORT,
  timeallocation: TIMEALLOCATION_REPORT,
  memberonsite: MEMBERONSITE_REPORT,
  placeonsite: PLACEONSITE_REPORT,
  statistics: STATISTICS_REPORT,
  places: PLACES_REPORT,
};

/** The definition of `type`. @throws Error when the type has none (the api refuses such requests first). */
export function definitionOf(type: ReportType): ReportDefinition {
  const definition = REPORT_DEFINITIONS[type];
  if (!definition) throw new Error(`report type ${type} has no definition`);
  return definition;
}
