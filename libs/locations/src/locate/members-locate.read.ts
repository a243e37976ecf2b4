import { preparedQuery } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { HeldVersions, SnapshotRow } from './company-snapshot';

/** A whole read joins every member's location row in one pass (a hash join over the company's rows). */
const WHOLE_JOIN = `LEFT JOIN (SELECT l.*, l.xmin AS lx FROM member_locations l) l ON l.company_id = m.company_id AND l.member_id = m.id`;
/**
 * The changed members' location rows, each by its primary key: a refresh reads tens of a company's
 * thousands of members, and a plain join let the planner hash every location row of the company for
 * them (0.9 ms of a 2.3-ms refresh at 2,000 members; 1.5 ms with the lookups, EXPLAIN ANALYZE of the
 * mixed load's database, 2026-11-28). `LIMIT 1` keeps the subquery from being flattened back into a
 * join; the key makes it at most one row anyway.
 */
const CHANGED_JOIN = `LEFT JOIN LATERAL (SELECT l.*, l.xmin AS lx FROM member_locations l
           WHERE l.company_id = m.company_id AND l.member_id = m.id LIMIT 1) l ON true`;

/**
 * The refresh statement: ONE statement, so one database snapshot for everything it reads.
 * $1 company id; incremental form only: $2 the last horizon as a 32-bit xid (decimal text), and $3–$5
 * the row versions the caller already holds that are not older than it ({@link HeldVersions}: member
 * ids, `members.xmin`, `member_locations.xmin` or '').
 *
 * A row version is "changed since the horizon" when its `xmin` is not older than the horizon:
 * `age(xmin) <= age($2)`, both ages taken against the same transaction id within the statement, so
 * the 32-bit comparison is right across wraparound while the horizon is less than 2^31 transactions
 * old (a snapshot is reloaded whole long before: LOCATE_SNAPSHOT_MAX_AGE_MS). Frozen rows keep their
 * raw `xmin`, and `age()` of a special xid is 2^31−1: both can only over-fetch, never miss. A version
 * the caller holds (same member, same `xmin`: the same committed row, since a snapshot only ever sees
 * a transaction's last version of a row) is left out: while a long transaction keeps the horizon back,
 * the rows committed since are otherwise read, and built as JSON, again on every refresh.
 * Each row read carries the versions read (`mx`, `lx`).
 * Answers one row: the new horizon (`pg_snapshot_xmin` of this statement's snapshot, xid8 text), the
 * company's `teams_config`, the two counts and the members read (`rows`, JSON, null when none): all
 * of them (`whole`) or the changed ones. Two texts, so each keeps its own plan as a prepared statement.
 */
function refreshSql(whole: boolean): string {
  // a version not older than the horizon and not one the caller holds (same member, same xmin)
  const changed = (id: string, held: string) =>
    whole
      ? `NULL::varchar[]`
      : `array_agg(${id}) FILTER (WHERE age(xmin) <= age($2::xid) AND (${id}::text, xmin::text) NOT IN (SELECT id, ${held} FROM held))`;
  return `WITH ${whole ? '' : 'held AS (SELECT * FROM unnest($3::text[], $4::text[], $5::text[]) AS h(id, mx, lx)),\n  '}ms AS (SELECT count(*)::int AS n, ${changed('id', 'mx')} AS changed FROM members WHERE company_id = $1),
  ls AS (SELECT count(*)::int AS n, ${changed('member_id', 'lx')} AS changed FROM member_locations WHERE company_id = $1)
SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon, c.teams_config::text AS teams_config,
       ms.n AS members, ls.n AS locations,
       (SELECT json_agg(json_build_object(
           'uid', m.id, 'usr', m.username, 'name', m.name, 'email', m.email, 'phone', m.phone, 'role', m.role,
           'teams', m.teams, 'active', m.active_status = 'active', 'created', m.created_at,
           'has_location', l.member_id IS NOT NULL, 'ts', l.ts, 'lat', l.lat, 'lng', l.lng, 'acc', l.acc, 'dir', l.dir,
           'spd', l.spd, 'elv', l.elv, 'bat', l.bat, 'connection_type', l.connection_type, 'android_id', l.android_id,
           'loc_gps_on', l.loc_gps_on, 'loc_net_on', l.loc_net_on, 'tracking_status', l.tracking_status,
           'signal_ts', l.signal_ts, 'mx', m.xmin::text, 'lx', l.lx::text))
          FROM members m ${whole ? WHOLE_JOIN : CHANGED_JOIN}
         WHERE m.company_id = $1${whole ? '' : ' AND (m.id = ANY(ms.changed) OR m.id = ANY(ls.changed))'}) AS rows
  FROM companies c CROSS JOIN ms CROSS JOIN ls
 WHERE c.id = $1`;
}
const REFRESH_WHOLE_SQL = refreshSql(true);
const REFRESH_CHANGED_SQL = refreshSql(false);

export interface RefreshRow {
  horizon: string;
  teams_config: string;
  members: number;
  locations: number;
  rows: SnapshotRow[] | null;
}

/**
 * A read model across the members lib's tables for `locate`'s snapshots ({@link LocateSnapshots}):
 * reads `members` (every member of the company with its fields), `companies` (`teams_config`) and
 * this lib's `member_locations` (the latest location and device details), in one statement.
 */
@Injectable()
export class MembersLocateRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The company's members with their latest locations: all of them, or (with `horizon`, the last
   * horizon as a 32-bit xid, `xid32` of @app/core) those whose `members` or `member_locations` row changed
   * since it, but for the versions in `held`; a named prepared statement per form.
   * @returns one refresh row, or none when the company does not exist
   */
  refresh(companyId: string, horizon?: string, held: HeldVersions = { ids: [], mx: [], lx: [] }): Promise<RefreshRow[]> {
    return horizon !== undefined
      ? preparedQuery<RefreshRow>(this.dataSource, 'fieldwork_locate_changed', REFRESH_CHANGED_SQL, [companyId, horizon, held.ids, held.mx, held.lx])
      : preparedQuery<RefreshRow>(this.dataSource, 'fieldwork_locate_whole', REFRESH_WHOLE_SQL, [companyId]);
  }
}
