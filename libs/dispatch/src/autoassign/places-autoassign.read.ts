import { query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * The places' positions createjobs with autoassign reads (a new job without its own coordinates is
 * where its place is).
 *
 * A documented read model across domains (docs/dispatch-assign.md): `places`, owned by `@app/places`
 * — only a live place's `location`; nothing is written.
 */
@Injectable()
export class PlacesAutoassignRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Live places' locations by uid (degrees), the company's only; places without one are left out. */
  async placeLocations(companyId: string, uids: readonly string[]): Promise<Map<string, { lat: number; lng: number }>> {
    if (!uids.length) return new Map();
    const rows = await query<{ id: string; lat: number; lng: number }>(
      this.dataSource,
      `SELECT id, ST_Y(location::geometry) AS lat, ST_X(location::geometry) AS lng FROM places
        WHERE company_id = $1 AND id = ANY($2::varchar[]) AND deleted_at IS NULL AND location IS NOT NULL`,
      [companyId, uids],
    );
    return new Map(rows.map((r) => [r.id, { lat: r.lat, lng: r.lng }]));
  }
}
