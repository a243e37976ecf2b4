import { AppConfig, preparedQuery } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { CompanySnapshot, SnapshotRow } from './company-snapshot';

/**
 * The refresh statement: ONE statement, so one database snapshot for everything it reads.
 * $1 company id; $2 (incremental form only) the last horizon as a 32-bit xid (decimal text).
 *
 * A row version is "changed since the horizon" when its `xmin` is not older than the horizon:
 * `age(xmin) <= age($2)`, both ages taken against the same transaction id within the statement, so
 * the 32-bit comparison is right across wraparound while the horizon is less than 2^31 transactions
 * old (a snapshot is reloaded whole long before: LOCATE_SNAPSHOT_MAX_AGE_MS). Frozen rows keep their
 * raw `xmin`, and `age()` of a special xid is 2^31−1: both can only over-fetch, never miss.
 * Answers one row: the new horizon (`pg_snapshot_xmin` of this statement's snapshot, xid8 text), the
 * company's `teams_config`, the two counts and the members read (`rows`, JSON, null when none): all
 * of them (`whole`) or the changed ones. Two texts, so each keeps its own plan as a prepared statement.
 */
function refreshSql(whole: boolean): string {
  const changed = (id: string) => (whole ? `NULL::varchar[]` : `array_agg(${id}) FILTER (WHERE age(xmin) <= age($2::xid))`);
  return `WITH ms AS (SELECT count(*)::int AS n, ${changed('id')} AS changed FROM members WHERE company_id = $1),
  ls AS (SELECT count(*)::int AS n, ${changed('member_id')} AS changed FROM member_locations WHERE company_id = $1)
SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon, c.teams_config::text AS teams_config,
       ms.n AS members, ls.n AS locations,
       (SELECT json_agg(json_build_object(
           'uid', m.id, 'usr', m.username, 'name', m.name, 'email', m.email, 'phone', m.phone, 'role', m.role,
           'teams', m.teams, 'active', m.active_status = 'active', 'created', m.created_at,
           'has_location', l.member_id IS NOT NULL, 'ts', l.ts, 'lat', l.lat, 'lng', l.lng, 'acc', l.acc, 'dir', l.dir,
           'spd', l.spd, 'elv', l.elv, 'bat', l.bat, 'connection_type', l.connection_type, 'android_id', l.android_id,
           'loc_gps_on', l.loc_gps_on, 'loc_net_on', l.loc_net_on, 'tracking_status', l.tracking_status,
           'signal_ts', l.signal_ts))
          FROM members m LEFT JOIN member_locations l ON l.company_id = m.company_id AND l.member_id = m.id
         WHERE m.company_id = $1${whole ? '' : ' AND (m.id = ANY(ms.changed) OR m.id = ANY(ls.changed))'}) AS rows
  FROM companies c CROSS JOIN ms CROSS JOIN ls
 WHERE c.id = $1`;
}
const REFRESH_WHOLE_SQL = refreshSql(true);
const REFRESH_CHANGED_SQL = refreshSql(false);

interface RefreshRow {
  horizon: string;
  teams_config: string;
  members: number;
  locations: number;
  rows: SnapshotRow[] | null;
}

/** One company's cache entry: its snapshot and the refreshes queued on it. */
interface Entry {
  snapshot?: CompanySnapshot;
  /** settles when the last queued refresh has run: refreshes of one entry run one at a time */
  tail: Promise<unknown>;
  /** a refresh queued and not yet started: calls arriving now share it */
  pending?: Promise<CompanySnapshot | null>;
}

/** The horizon (xid8 decimal text) as the 32-bit xid `age()` takes. */
export function xid32(xid8: string): string {
  return (BigInt(xid8) % 4294967296n).toString();
}

/**
 * Per-company snapshots of every member with its latest location, for `locate` (docs/locate.md,
 * *The snapshot*): instead of reading and converting all of a company's members on every call,
 * each call reads only the rows whose `xmin` is not older than the snapshot's horizon (one
 * statement, a few ms at 5,000 members), applies them, and answers from memory — the records'
 * JSON is rendered once per change.
 *
 * Never stale: each call waits for a refresh that STARTS after the call began (calls arriving
 * together share one), so an answer holds every write committed before the call. Refreshes of one
 * company run one at a time. A row deleted shows only as a count that moved: then, or when the
 * snapshot is older than `LOCATE_SNAPSHOT_MAX_AGE_MS`, the company is read whole again.
 * Companies are kept least-recently-used, up to `LOCATE_SNAPSHOT_MEMBERS` members in all per api
 * process (about 1.2 KB of heap each); each api instance keeps its own.
 */
@Injectable()
export class LocateSnapshots {
  private readonly entries: LRUCache<string, Entry>;
  /** Refresh statements run, whole reads among them: for tests and the bench. */
  readonly stats = { refreshes: 0, fullReads: 0 };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: config.LOCATE_SNAPSHOT_MEMBERS,
      sizeCalculation: (e) => Math.max(1, e.snapshot?.size ?? 1),
    });
  }

  /** Members held in all companies' snapshots of this process. */
  get heldMembers(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.snapshot?.size ?? 0;
    return n;
  }

  /**
   * The company's snapshot holding every write committed before this call (read from the database
   * as needed).
   * @returns null when the company does not exist
   */
  current(companyId: string): Promise<CompanySnapshot | null> {
    let entry = this.entries.get(companyId);
    if (!entry) {
      entry = { tail: Promise.resolve() };
      this.entries.set(companyId, entry);
    }
    if (entry.pending) return entry.pending;
    const e = entry;
    const run = e.tail.then(() => {
      e.pending = undefined;
      return this.refresh(companyId, e);
    });
    e.pending = run;
    e.tail = run.catch(() => undefined);
    return run;
  }

  /** Brings the entry's snapshot up to date (or reads it whole); the company is re-sized in the cache. */
  private async refresh(companyId: string, e: Entry): Promise<CompanySnapshot | null> {
    try {
      const now = Date.now();
      const held = e.snapshot && now - e.snapshot.loadedAt <= this.config.LOCATE_SNAPSHOT_MAX_AGE_MS ? e.snapshot : undefined;
      let snapshot = held ? await this.read(companyId, held, now) : null;
      if (!snapshot) snapshot = await this.read(companyId, undefined, now);
      e.snapshot = snapshot ?? undefined;
      if (snapshot && this.entries.get(companyId) === e) this.entries.set(companyId, e);
      return snapshot;
    } catch (err) {
      e.snapshot = undefined; // never answer from a snapshot a failed refresh may have half-applied
      throw err;
    }
  }

  /**
   * One refresh statement: the rows changed since `held`'s horizon applied to it, or (no `held`) a
   * whole new snapshot.
   * @returns the snapshot; null when the company does not exist, or when `held` no longer matches
   *   the database's counts (the caller then reads whole)
   */
  private async read(companyId: string, held: CompanySnapshot | undefined, now: number): Promise<CompanySnapshot | null> {
    this.stats.refreshes++;
    if (!held) this.stats.fullReads++;
    const [row] = held
      ? await preparedQuery<RefreshRow>(this.dataSource, 'fieldwork_locate_changed', REFRESH_CHANGED_SQL, [companyId, xid32(held.horizon)])
      : await preparedQuery<RefreshRow>(this.dataSource, 'fieldwork_locate_whole', REFRESH_WHOLE_SQL, [companyId]);
    if (!row) return null;
    const snapshot = held ?? new CompanySnapshot(row.horizon, now);
    snapshot.apply(row.rows ?? [], row.horizon);
    snapshot.setTeams(row.teams_config);
    if (!held) snapshot.countsRead(row);
    return snapshot.matches(row) ? snapshot : null;
  }
}
