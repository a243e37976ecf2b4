import { query, SQL_NOW_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PositionRow } from './position-record';

/**
 * The live stream's read of members' positions: a documented read model of `member_locations`
 * (owned by `@app/locations`) joined with `members` (owned by `@app/members`) for the names. Only
 * located members (a latest fix with coordinates). Times are ms, database clock.
 */
@Injectable()
export class PositionsRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The company's located members whose latest-location row was written after `since` (ms; null =
   * all), and the database's now (ms) at the read.
   */
  async changedSince(companyId: string, since: number | null): Promise<{ now: number; rows: PositionRow[] }> {
    // one row per member, or one row of nulls but for `now` when none changed
    const rows = await query<PositionRow & { now: number }>(
      this.dataSource,
      `SELECT n.now::float8 AS now, p.* FROM (SELECT ${SQL_NOW_MS} AS now) n LEFT JOIN LATERAL (
         SELECT l.member_id AS uid, m.username, m.name, l.ts::float8 AS ts, l.lat, l.lng, l.acc, l.spd, l.dir, l.bat,
                l.anchor_ts::float8 AS "anchorTs", l.anchor_lat AS "anchorLat", l.anchor_lng AS "anchorLng",
                l.tracking_status AS "trackingStatus"
           FROM member_locations l JOIN members m ON m.company_id = l.company_id AND m.id = l.member_id
          WHERE l.company_id = $1 AND l.ts IS NOT NULL AND l.lat IS NOT NULL AND l.lng IS NOT NULL
            AND ($2::bigint IS NULL OR l.updated_at > $2)) p ON true`,
      [companyId, since],
    );
    return { now: rows[0].now, rows: rows.filter((r) => r.uid !== null).map(({ now: _now, ...r }) => r) };
  }
}
