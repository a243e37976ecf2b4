import { namedQuery, SQL_NOW_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PositionRow } from './position-record';

/**
 * The read, one statement (so one database snapshot): the database's now (ms), the new horizon
 * (`pg_snapshot_xmin` of this statement's snapshot, xid8 text) and the located members — all of
 * them, or (`$2`, the last horizon as a 32-bit xid) those whose `member_locations` row version is not
 * older than it (`age(xmin) <= age($2)`). Every transaction not visible to the last read has an xid
 * not older than that read's `xmin`, so a row committed after it is never missed, however late its
 * transaction commits; rows of transactions in progress (or just committed) then are read again.
 * Two texts, so each keeps its own plan as a named prepared statement.
 */
function positionsSql(changed: boolean): string {
  return `SELECT n.now::float8 AS now, pg_snapshot_xmin(pg_current_snapshot())::text AS horizon, p.* FROM (SELECT ${SQL_NOW_MS} AS now) n LEFT JOIN LATERAL (
         SELECT l.member_id AS uid, m.username, m.name, l.ts::float8 AS ts, l.lat, l.lng, l.acc, l.spd, l.dir, l.bat,
                l.anchor_ts::float8 AS "anchorTs", l.anchor_lat AS "anchorLat", l.anchor_lng AS "anchorLng",
                l.tracking_status AS "trackingStatus"
           FROM member_locations l JOIN members m ON m.company_id = l.company_id AND m.id = l.member_id
          WHERE l.company_id = $1 AND l.ts IS NOT NULL AND l.lat IS NOT NULL AND l.lng IS NOT NULL${
            changed ? ' AND age(l.xmin) <= age($2::xid)' : ''
          }) p ON true`;
}
const ALL_SQL = positionsSql(false);
const CHANGED_SQL = positionsSql(true);

/**
 * The live stream's read of members' positions: a documented read model of `member_locations`
 * (owned by `@app/locations`) joined with `members` (owned by `@app/members`) for the names. Only
 * located members (a latest fix with coordinates). Times are ms, database clock. Which rows changed
 * is told by their `xmin`, as `locate`'s snapshot does (docs/live.md, "Positions").
 */
@Injectable()
export class PositionsRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The company's located members whose latest-location row changed since the read that answered
   * `horizon` (undefined = all), the database's now (ms) and the horizon to pass next time.
   * @param horizon a previous answer's `horizon` as a 32-bit xid (`xid32` of @app/core)
   */
  async changedSince(companyId: string, horizon?: string): Promise<{ now: number; horizon: string; rows: PositionRow[] }> {
    // one row per member, or one row of nulls but for `now` and `horizon` when none changed
    const rows =
      horizon === undefined
        ? await namedQuery<PositionRow & { now: number; horizon: string }>(this.dataSource, 'fieldwork_positions_all', ALL_SQL, [companyId])
        : await namedQuery<PositionRow & { now: number; horizon: string }>(this.dataSource, 'fieldwork_positions_changed', CHANGED_SQL, [
            companyId,
            horizon,
          ]);
    return {
      now: rows[0].now,
      horizon: rows[0].horizon,
      rows: rows.filter((r) => r.uid !== null).map(({ now: _now, horizon: _h, ...r }) => r),
    };
  }
}
