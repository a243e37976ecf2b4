import { query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { LatestPositionRow } from './connector-position';

/**
 * `locate`'s writes of `member_locations` (its reads come from {@link MembersLocateRead}), and the
 * latest positions `GET /v1/locations` answers.
 */
@Injectable()
export class LocateRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records a pending ping (`ping_requested_at` = `now`, ms) for each of the company's `memberIds`,
   * inserting a member's `member_locations` row when it has none.
   */
  async requestPing(companyId: string, memberIds: readonly string[], now: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO member_locations (company_id, member_id, ping_requested_at, updated_at)
       SELECT $1, id, $3, $3 FROM unnest($2::varchar[]) AS id
       ON CONFLICT (company_id, member_id) DO UPDATE SET ping_requested_at = EXCLUDED.ping_requested_at`,
      [companyId, memberIds, now],
    );
  }

  /**
   * The company's `member_locations` rows of `memberIds` (members without one left out): the latest
   * fix, its anchor and the tracking state, keyed by member id. bigint columns cast so `pg` answers numbers.
   */
  async latestPositions(companyId: string, memberIds: readonly string[]): Promise<Map<string, LatestPositionRow>> {
    if (!memberIds.length) return new Map();
    const rows = await query<LatestPositionRow>(
      this.dataSource,
      `SELECT member_id AS "memberId", ts::float8 AS ts, lat, lng, acc, spd, dir, bat, anchor_ts::float8 AS "anchorTs",
              anchor_lat AS "anchorLat", anchor_lng AS "anchorLng", tracking_status AS "trackingStatus"
         FROM member_locations WHERE company_id = $1 AND member_id = ANY($2::varchar[])`,
      [companyId, [...memberIds]],
    );
    return new Map(rows.map((r) => [r.memberId, r]));
  }
}
