import { query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * The members' latest positions as dispatch reads them: a route's start on today (optimizeroute,
 * autoassign, createjobs with autoassign), after the member's own and its team's route start.
 *
 * A documented read model across domains (docs/dispatch.md, docs/dispatch-assign.md):
 * `member_locations`, owned by `@app/locations` — only the latest fix's `lat`/`lng` (null together,
 * with `ts`, until the member's first fix); nothing is written.
 */
@Injectable()
export class LatestLocationsRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The latest known position of each member (degrees) of the company; members never located are left out. */
  async latestLocations(companyId: string, memberIds: readonly string[]): Promise<Map<string, { lat: number; lng: number }>> {
    if (!memberIds.length) return new Map();
    const rows = await query<{ member_id: string; lat: number; lng: number }>(
      this.dataSource,
      `SELECT member_id, lat, lng FROM member_locations
        WHERE company_id = $1 AND member_id = ANY($2::varchar[]) AND lat IS NOT NULL AND lng IS NOT NULL`,
      [companyId, memberIds],
    );
    return new Map(rows.map((r) => [r.member_id, { lat: r.lat, lng: r.lng }]));
  }
}
