import type { ReportDefinition } from '../report-definition';
import type { ReportType } from '../report-types';
import { ACTIVITIES_REPORT } from './activities';
import { ALERTS_REPORT } from './alerts';
import { CHECKINS_REPORT } from './checkins';
import { DAYROUTE_REPORT } from './dayroute';
import { GPX_REPORT } from './gpx';
import { JOBS_REPORT } from './jobs';
import { MEMBERS_REPORT } from './members';
import { MILEAGE_REPORT } from './mileage';
import { PLACES_REPORT } from './places';
import { STOPS_REPORT } from './stopsreport';
import { TIMELINE_REPORT } from './timeline';
import { WORKSHEET_REPORT } from './worksheet';

/**
 * The report types' definitions (columns and row sources), one module each beside this file. A type
 * without a definition yet is refused by createreport with -1 "not available yet".
 */
export const REPORT_DEFINITIONS: { readonly [T in ReportType]?: ReportDefinition } = {
  activities: ACTIVITIES_REPORT,
  gpx: GPX_REPORT,
  timeline: TIMELINE_REPORT,
  stopsreport: STOPS_REPORT,
  mileage: MILEAGE_REPORT,
  alerts: ALERTS_REPORT,
  checkins: CHECKINS_REPORT,
  dayroute: DAYROUTE_REPORT,
  jobs: JOBS_REPORT,
  members: MEMBERS_REPORT,
  places: PLACES_REPORT,
  worksheet: WORKSHEET_REPORT,
};

/** The definition of `type`. @throws Error when the type has none (the api refuses such requests first). */
export function definitionOf(type: ReportType): ReportDefinition {
  const definition = REPORT_DEFINITIONS[type];
  if (!definition) throw new Error(`report type ${type} has no definition`);
  return definition;
}
