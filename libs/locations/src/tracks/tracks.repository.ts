import { namedQuery, query, queryOne, Queryable, ReplicaReads, ShareTokensRepository } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Fix } from '../fix';
import { Track } from '../entities/track.entity';
import { TrackShare } from '../entities/track-share.entity';
import type { TrackStats } from './stats';
import { LateMarker, NewestTrack, STAT_COLUMNS, StoredTrack, TrackBuildState, TrackWrite } from './track-rows';

const num = (v: unknown) => (v === null ? null : Number(v));

const COLUMNS = [...STAT_COLUMNS.map(([, c]) => c), 'path', 'open', 'build_state'];
/** `col = $3, …` after `$1` company and `$2` id, then `updated_at`. */
const UPDATE_SET = [
  ...COLUMNS.map((c, i) => (c === 'path' ? `path = ST_GeomFromGeoJSON($${i + 3}::text)::geography` : `${c} = $${i + 3}`)),
  `updated_at = $${COLUMNS.length + 3}`,
].join(', ');

function values(b: TrackWrite): unknown[] {
  return [...STAT_COLUMNS.map(([k]) => b.stats[k]), b.path, b.open, b.state && JSON.stringify(b.state)];
}

/**
 * The SQL of tracks (`tracks`, `track_shares`) and of what building them reads (`location_fixes`,
 * `clock_events`, `member_locations`): the builder's statements run in its transaction (`db`), every
 * one scoped by company and member; gettracks' and the share links' reads on the pool. bigint
 * columns are answered as ms numbers. A share token's row in the global lookup `share_tokens` (kind
 * `track`, through {@link ShareTokensRepository}) is written and deleted with its `track_shares` row,
 * in the same transaction. The statements of every build (lock, newest track, fixes, tracking-offs,
 * append, update) are named prepared statements ({@link namedQuery}): one build runs several a
 * second per worker, and planning them on every run cost PostgreSQL more than running them.
 */
@Injectable()
export class TracksRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly shareTokens: ShareTokensRepository,
    private readonly replica: ReplicaReads,
  ) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /** Takes the member's track-building advisory lock until the end of the transaction `db`. */
  async lockMember(db: Queryable, companyId: string, memberId: string): Promise<void> {
    await namedQuery(db, 'fieldwork_tracks_lock', `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `tracks:${companyId}:${memberId}`,
    ]);
  }

  /**
   * The member's newest track (if any) and its {@link LateMarker}, in one statement: the first read of
   * every build, before any fix.
   */
  async newestTrack(db: Queryable, companyId: string, memberId: string): Promise<{ newest: NewestTrack | null; marker: LateMarker }> {
    const [row] = await namedQuery<{
      id: string | null;
      build_state: TrackBuildState | null;
      open: boolean | null;
      late_fixes: number | null;
      latest_ts: number | null;
    }>(
      db,
      'fieldwork_tracks_newest',
      `SELECT t.id, t.build_state, t.open, l.late_fix_count::float8 AS late_fixes, l.ts::float8 AS latest_ts
         FROM (SELECT $1::varchar AS company_id, $2::varchar AS member_id) k
         LEFT JOIN LATERAL (SELECT id, build_state, open FROM tracks WHERE company_id = k.company_id AND member_id = k.member_id
                             ORDER BY start_ts DESC LIMIT 1) t ON true
         LEFT JOIN member_locations l ON l.company_id = k.company_id AND l.member_id = k.member_id`,
      [companyId, memberId],
    );
    const marker = { lateFixes: row.late_fixes, latestTs: row.latest_ts };
    return { newest: row.id === null ? null : { id: row.id, build_state: row.build_state, open: row.open! }, marker };
  }

  /** How many fixes the member has with `from` ≤ ts ≤ `to` (ms). */
  async countFixes(db: Queryable, companyId: string, memberId: string, from: number, to: number): Promise<number> {
    const [{ n }] = await namedQuery<{ n: number }>(
      db,
      'fieldwork_tracks_count_fixes',
      `SELECT count(*)::int AS n FROM location_fixes WHERE company_id = $1 AND member_id = $2 AND ts >= $3 AND ts <= $4`,
      [companyId, memberId, from, to],
    );
    return n;
  }

  /** The member's fixes with ts ≥ `from` (ms), ascending. */
  async fixesFrom(db: Queryable, companyId: string, memberId: string, from: number): Promise<Fix[]> {
    const rows = await namedQuery<Record<keyof Fix, string | number | null>>(
      db,
      'fieldwork_tracks_fixes_from',
      `SELECT ts, lat, lng, acc, dir, spd, elv, bat FROM location_fixes
        WHERE company_id = $1 AND member_id = $2 AND ts >= $3 ORDER BY ts`,
      [companyId, memberId, from],
    );
    return rows.map((r) => ({
      ts: Number(r.ts),
      lat: Number(r.lat),
      lng: Number(r.lng),
      acc: num(r.acc),
      dir: num(r.dir),
      spd: num(r.spd),
      elv: num(r.elv),
      bat: num(r.bat),
    }));
  }

  /** The ts (ms, ascending) of the member's tracking-off clock events with ts ≥ `from`. */
  async trackingOffs(db: Queryable, companyId: string, memberId: string, from: number): Promise<number[]> {
    const offs = await namedQuery<{ ts: string }>(
      db,
      'fieldwork_tracks_offs',
      `SELECT ts FROM clock_events WHERE company_id = $1 AND member_id = $2 AND tracking = false AND ts >= $3 ORDER BY ts`,
      [companyId, memberId, from],
    );
    return offs.map((o) => Number(o.ts));
  }

  /** The starts (ms) of the member's last two tracks starting at or before `ts`, newest first. */
  async startsUpTo(db: Queryable, companyId: string, memberId: string, ts: number): Promise<number[]> {
    const rows = await query<{ start_ts: string }>(
      db,
      `SELECT start_ts FROM tracks WHERE company_id = $1 AND member_id = $2 AND start_ts <= $3 ORDER BY start_ts DESC LIMIT 2`,
      [companyId, memberId, ts],
    );
    return rows.map((r) => Number(r.start_ts));
  }

  /** The ts (ms) of the member's last fix before `ts`, or null. */
  async fixBefore(db: Queryable, companyId: string, memberId: string, ts: number): Promise<number | null> {
    const row = await queryOne<{ ts: string }>(
      db,
      `SELECT ts FROM location_fixes WHERE company_id = $1 AND member_id = $2 AND ts < $3 ORDER BY ts DESC LIMIT 1`,
      [companyId, memberId, ts],
    );
    return row ? Number(row.ts) : null;
  }

  /** Whether the member has a tracking-off clock event with `from` ≤ ts < `until` (ms). */
  async trackingOffBetween(db: Queryable, companyId: string, memberId: string, from: number, until: number): Promise<boolean> {
    const off = await queryOne(
      db,
      `SELECT 1 FROM clock_events WHERE company_id = $1 AND member_id = $2 AND tracking = false AND ts >= $3 AND ts < $4 LIMIT 1`,
      [companyId, memberId, from, until],
    );
    return !!off;
  }

  /** The member's tracks starting at or after `from` (ms), in start order. */
  async storedFrom(db: Queryable, companyId: string, memberId: string, from: number): Promise<StoredTrack[]> {
    const rows = await query<Record<string, unknown>>(
      db,
      `SELECT id, share_token, open, start_ts, end_ts, start_lat, start_lng, end_lat, end_lng, distance, waypoint_count,
              speed_avg, speed_max, altitude_min, altitude_max, altitude_gain, altitude_loss, short_encoded, course_encoded,
              lat_min, lat_max, lng_min, lng_max, build_state
         FROM tracks WHERE company_id = $1 AND member_id = $2 AND start_ts >= $3 ORDER BY start_ts`,
      [companyId, memberId, from],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      shareToken: r.share_token as string,
      open: r.open as boolean,
      buildState: r.build_state as TrackBuildState | null,
      startTs: Number(r.start_ts),
      endTs: Number(r.end_ts),
      startLat: r.start_lat as number,
      startLng: r.start_lng as number,
      endLat: r.end_lat as number,
      endLng: r.end_lng as number,
      distance: r.distance as number,
      waypointCount: r.waypoint_count as number,
      speedAvg: r.speed_avg as number,
      speedMax: r.speed_max as number,
      altitudeMin: r.altitude_min as number | null,
      altitudeMax: r.altitude_max as number | null,
      altitudeGain: r.altitude_gain as number | null,
      altitudeLoss: r.altitude_loss as number | null,
      shortEncoded: r.short_encoded as string,
      courseEncoded: r.course_encoded as string,
      latMin: r.lat_min as number,
      latMax: r.lat_max as number,
      lngMin: r.lng_min as number,
      lngMax: r.lng_max as number,
    }));
  }

  /**
   * Extends an open track: its figures set to `stats` — except the polylines, which grow by the
   * characters `stats` holds (the accumulator encoded only those) — `open`, `state`, `updated_at` =
   * `now`, and `newPoints` (GeoJSON Point or LineString text; null = none) added to its path.
   */
  async appendToTrack(
    db: Queryable,
    companyId: string,
    id: string,
    a: { stats: TrackStats; open: boolean; state: TrackBuildState | null; now: number; newPoints: string | null },
  ): Promise<void> {
    const n0 = STAT_COLUMNS.length;
    const appendTo = new Set(['short_encoded', 'course_encoded']);
    await namedQuery(
      db,
      'fieldwork_tracks_append',
      `UPDATE tracks SET ${STAT_COLUMNS.map(([, c], i) => (appendTo.has(c) ? `${c} = ${c} || $${i + 3}` : `${c} = $${i + 3}`)).join(', ')},
              open = $${n0 + 3}, build_state = $${n0 + 4}::jsonb, updated_at = $${n0 + 5},
              path = CASE WHEN $${n0 + 6}::text IS NULL THEN path
                          ELSE ST_MakeLine(path::geometry, ST_GeomFromGeoJSON($${n0 + 6}::text))::geography END
        WHERE company_id = $1 AND id = $2`,
      [companyId, id, ...STAT_COLUMNS.map(([k]) => a.stats[k]), a.open, a.state && JSON.stringify(a.state), a.now, a.newPoints],
    );
  }

  /** Overwrites a track with a built one (`updated_at` = `now`). */
  async updateTrack(db: Queryable, companyId: string, id: number, b: TrackWrite, now: number): Promise<void> {
    await namedQuery(db, 'fieldwork_tracks_update', `UPDATE tracks SET ${UPDATE_SET} WHERE company_id = $1 AND id = $2`, [
      companyId,
      id,
      ...values(b),
      now,
    ]);
  }

  /**
   * Inserts a built track with its share `token`, the token's `share_tokens` row and its
   * `track_shares` row, in the caller's transaction `db`. @returns the track's id
   * @throws QueryFailedError unique violation `SHARE_TOKEN_TAKEN` for a token already issued
   */
  async insertTrack(db: Queryable, companyId: string, memberId: string, token: string, b: TrackWrite, now: number): Promise<string> {
    const [row] = await query<{ id: string }>(
      db,
      `INSERT INTO tracks (company_id, member_id, share_token, ${COLUMNS.join(', ')}, updated_at)
       VALUES ($1, $2, $3, ${COLUMNS.map((c, i) => (c === 'path' ? `ST_GeomFromGeoJSON($${i + 4}::text)::geography` : `$${i + 4}`)).join(', ')}, $${COLUMNS.length + 4})
       RETURNING id`,
      [companyId, memberId, token, ...values(b), now],
    );
    await this.shareTokens.insert(db, token, companyId, 'track');
    await db.query(`INSERT INTO track_shares (token, company_id, track_id) VALUES ($1, $2, $3)`, [token, companyId, row.id]);
    return row.id;
  }

  /** Deletes the company's tracks of `ids` with their share rows and the tokens' `share_tokens` rows, in the caller's transaction `db`. */
  async deleteTracks(db: Queryable, companyId: string, ids: readonly number[]): Promise<void> {
    const shares = await query<{ token: string }>(
      db,
      `DELETE FROM track_shares WHERE company_id = $1 AND track_id = ANY($2::bigint[]) RETURNING token`,
      [companyId, ids],
    );
    await this.shareTokens.delete(
      db,
      'track',
      shares.map((s) => s.token),
    );
    await db.query(`DELETE FROM tracks WHERE company_id = $1 AND id = ANY($2::bigint[])`, [companyId, ids]);
  }

  /**
   * {@link forMembers} as a routed read (docs/scaling.md, "Read replica"): from the replica once it
   * has replayed past the primary's WAL position taken now — after every commit the caller has seen
   * answered — else from the primary (also when the replica is down or fails mid-read).
   */
  async forMembersRouted(companyId: string, memberIds: readonly string[], from: number, until: number): Promise<Track[]> {
    if (!memberIds.length) return [];
    const lsn = await this.replica.position();
    return (await this.replica.read(lsn, (db) => this.forMembers(companyId, memberIds, from, until, db))).value;
  }

  /**
   * The company's tracks of these members that overlap [from, until) (ms): `start_ts < until` and
   * `end_ts >= from` — the open track's `end_ts` is its last fix so far. Oldest first (start, then id).
   * On `db`: the primary's data source by default, the replica's for a routed read (gettracks).
   */
  async forMembers(
    companyId: string,
    memberIds: readonly string[],
    from: number,
    until: number,
    db: DataSource = this.dataSource,
  ): Promise<Track[]> {
    if (!memberIds.length) return [];
    return db
      .getRepository(Track)
      .createQueryBuilder('t')
      .where('t.company_id = :companyId AND t.member_id IN (:...memberIds)', { companyId, memberIds })
      .andWhere('t.start_ts < :until AND t.end_ts >= :from', { from, until })
      .orderBy('t.start_ts')
      .addOrderBy('t.id')
      .getMany();
  }

  /** The share row of a token, or null: its company from `share_tokens`, then the row by `(company_id, token)`. */
  async shareByToken(token: string): Promise<TrackShare | null> {
    const companyId = await this.shareTokens.companyOf(token, 'track', this.dataSource);
    if (companyId === undefined) return null;
    return this.dataSource.getRepository(TrackShare).findOneBy({ companyId, token });
  }

  /** The company's track `id`, or null. */
  track(companyId: string, id: Track['id']): Promise<Track | null> {
    return this.dataSource.getRepository(Track).findOneBy({ companyId, id });
  }

  /** The track's member's fixes of its time span with `acc` ≤ `maxAccuracyM` or unknown, ascending (`ts` ms). */
  async trackFixes(track: Track, maxAccuracyM: number): Promise<Array<{ ts: number; lat: number; lng: number; elv: number | null }>> {
    const rows: Array<{ ts: string; lat: number; lng: number; elv: number | null }> = await this.dataSource.query(
      `SELECT ts, lat, lng, elv FROM location_fixes
        WHERE company_id = $1 AND member_id = $2 AND ts >= $3 AND ts <= $4 AND (acc IS NULL OR acc <= $5) ORDER BY ts`,
      [track.companyId, track.memberId, track.startTs, track.endTs, maxAccuracyM],
    );
    return rows.map((r) => ({ ts: Number(r.ts), lat: r.lat, lng: r.lng, elv: r.elv }));
  }
}
