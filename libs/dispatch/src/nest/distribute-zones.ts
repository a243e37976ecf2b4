import { Injectable } from '@nestjs/common';
import type { GeoPoint } from '../types';

/** The zones a job lies in, as dispatch's `zones` method uses them. */
export interface JobZones {
  /** ids of the zones covering the job's destination, the first being its "first linked zone" */
  zoneIds: string[];
  /** the teams of those zones (autoassign `zones`: a worker of one of them) */
  teams: number[];
}

/**
 * Where dispatch's `zones` method learns a job's zones (CONTRACTS.md "Dispatch"; zones themselves are
 * issue #12's). Plug a real source in by providing this token with another class in
 * `DispatchAssignModule`'s place (e.g. a spatial join of the points on the zones' polygons).
 */
export abstract class DispatchZoneSource {
  /**
   * @param points the jobs' positions (degrees), null for a job without coordinates
   * @returns one entry per point, in order
   */
  abstract zonesOf(companyId: string, points: ReadonlyArray<GeoPoint | null>): Promise<JobZones[]>;
}

/**
 * Today's source: zones are not real yet (issue #12 builds them), so no job lies in a zone —
 * distributejobs `zones` then groups by `teamId`, and autoassign `zones` limits by `teamId` only.
 */
@Injectable()
export class NoZones extends DispatchZoneSource {
  zonesOf(_companyId: string, points: ReadonlyArray<GeoPoint | null>): Promise<JobZones[]> {
    return Promise.resolve(points.map(() => ({ zoneIds: [], teams: [] })));
  }
}
