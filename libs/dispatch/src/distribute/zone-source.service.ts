import { ZonesService } from '@app/zones';
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
 * Where dispatch's `zones` method learns a job's zones (CONTRACTS.md "Dispatch"). The worker provides
 * {@link ZonesDispatchSource}; a test or a bench may provide another class for this token.
 */
export abstract class DispatchZoneSource {
  /**
   * @param points the jobs' positions (degrees), null for a job without coordinates
   * @returns one entry per point, in order
   */
  abstract zonesOf(companyId: string, points: ReadonlyArray<GeoPoint | null>): Promise<JobZones[]>;
}

/**
 * The real source: the company's live zones covering each job's position, through
 * `ZonesService.zonesAt` (one spatial join for all the points; zones in id order, so a job's "first
 * linked zone" is the oldest zone covering it — the first id of its `linkedZones`). See docs/zones.md.
 */
@Injectable()
export class ZonesDispatchSource extends DispatchZoneSource {
  constructor(private readonly zones: ZonesService) {
    super();
  }

  zonesOf(companyId: string, points: ReadonlyArray<GeoPoint | null>): Promise<JobZones[]> {
    return this.zones.zonesAt(companyId, points);
  }
}
