import { randomBytes } from 'node:crypto';
import { AppConfig, query, queryOne, Queryable } from '@app/core';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Fix } from '../fix';
import { FixConsumer, FixConsumerRegistry, FixesTask } from '../fix-consumers';
import { isDeepStrictEqual } from 'node:util';
import { isUsable, Segment, splitRules, SplitRules, splitTracks, stopSearchResumeTs } from './split';
import { TrackAccumulator, TrackAccumulatorState, TrackStats, trackStats, usedFixes } from './stats';

/** What one rebuild did (for logs and tests). */
export interface RebuildSummary {
  /** `append`: the open track was extended by its new fixes alone; `rebuild`: tracks were rebuilt from their fixes */
  mode: 'append' | 'rebuild';
  /** ms: where the rebuild started (-1: the member's whole history), or where the appended tail was read from */
  from: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /**
   * How an append ruled out a late fix inside the open track: `marker` — the member's late-fix count
   * is the one its build state saw (nothing read); `count` — its fixes were counted (the marker
   * changed, is unknown, or the task's range starts before the track)
   */
  lateCheck?: 'marker' | 'count';
}

/**
 * What a build reads of `member_locations` before any fix: the member's late-fix count and latest
 * `ts` (both null without a row). Read first, so a late fix committed after it changes the count the
 * next build reads.
 */
interface LateMarker {
  lateFixes: number | null;
  latestTs: number | null;
}

interface StoredTrack extends TrackStats {
  id: number;
  shareToken: string;
  open: boolean;
  buildState: TrackBuildState | null;
}

/**
 * What the worker keeps of an open track to extend it by new fixes alone (`tracks.build_state`):
 * the running figures of its used fixes, how many fixes (used or not) it holds from `firstFixTs` to
 * `lastFixTs` (ms), whether it starts at a stop's departure, and the `ts` its stop search resumes at
 * ({@link stopSearchResumeTs}).
 */
export interface TrackBuildState {
  v: 1;
  acc: TrackAccumulatorState;
  fixCount: number;
  firstFixTs: number;
  lastFixTs: number;
  startsAtDeparture: boolean;
  resumeTs: number;
  /**
   * `member_locations.late_fix_count` as read at the start of the build that wrote this state (null:
   * no row; absent in states written before it existed): while the count is unchanged, no fix has
   * been stored inside the track since (docs/tracks.md "Appending")
   */
  lateFixes?: number | null;
}

/** A built track: its figures, path, whether it is the member's open (current) track, and its build state. */
interface Built {
  stats: TrackStats;
  path: string | null;
  open: boolean;
  state: TrackBuildState | null;
}

const num = (v: unknown) => (v === null ? null : Number(v));

/**
 * Builds a member's tracks from its stored fixes and tracking-off (clock out) events, as the `tracks`
 * fix consumer of the worker's Locations processor (CONTRACTS.md "Tracks"; rules in docs/tracks.md).
 *
 * For a `fixes` task it rebuilds the tracks the new fixes can change: from the start of the track
 * that starts at or before `fromTs` — one track further back when that track starts at a stop's
 * departure, since a late fix may move the departure — to the newest fix (`toTs` is not a limit: a
 * late fix can join tracks after it). Everything happens in one transaction under a per-member
 * advisory lock, so concurrent tasks of one member serialise; the result depends only on the stored
 * rows (and, for `open`, on the time), so a task run twice changes nothing the second time.
 */
@Injectable()
export class TrackBuilder implements FixConsumer, OnModuleInit {
  readonly name = 'tracks';
  private readonly rules: SplitRules;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registry: FixConsumerRegistry,
    config: AppConfig,
  ) {
    this.rules = splitRules(config.TRACK_STOP_MINUTES);
  }

  /** Run by the debounced `tracks` task (see IngestService), not on every call's fixes. */
  readonly task = 'tracks' as const;

  onModuleInit(): void {
    this.registry.register(this);
  }

  async onFixes(task: FixesTask): Promise<void> {
    await this.rebuild(task.companyId, task.memberId, task.fromTs);
  }

  /**
   * Rebuilds the member's tracks that fixes from `fromTs` (ms) on can affect; `now` (ms) decides
   * whether the newest track is still open (its last fix less than the gap limit ago).
   */
  async rebuild(companyId: string, memberId: string, fromTs: number, now = Date.now()): Promise<RebuildSummary> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`tracks:${companyId}:${memberId}`]);
      const { newest, marker } = await this.newestTrack(manager, companyId, memberId);
      const appended = await this.append(manager, companyId, memberId, fromTs, now, newest, marker);
      if (appended) return appended;
      const from = await this.rebuildStart(manager, companyId, memberId, fromTs);
      const afterStop = from >= 0 && (await this.isDeparture(manager, companyId, memberId, from));
      const fixes = await this.fixesFrom(manager, companyId, memberId, from);
      const offs = await query<{ ts: string }>(
        manager,
        `SELECT ts FROM clock_events WHERE company_id = $1 AND member_id = $2 AND tracking = false AND ts >= $3 ORDER BY ts`,
        [companyId, memberId, from],
      );
      const segments = splitTracks(
        fixes,
        offs.map((o) => Number(o.ts)),
        this.rules,
        afterStop,
      );
      const built = segments.map((seg, i) => this.build(seg, i === segments.length - 1, now, marker));
      const existing = await this.storedFrom(manager, companyId, memberId, from);
      return { mode: 'rebuild' as const, from, ...(await this.apply(manager, companyId, memberId, built, existing, now)) };
    });
  }

  /**
   * The member's newest track (if any) and its {@link LateMarker}, in one statement: the first read of
   * every build, before any fix.
   */
  private async newestTrack(
    db: Queryable,
    companyId: string,
    memberId: string,
  ): Promise<{ newest: { id: string; build_state: TrackBuildState | null; open: boolean } | null; marker: LateMarker }> {
    const row = (await queryOne<{
      id: string | null;
      build_state: TrackBuildState | null;
      open: boolean | null;
      late_fixes: number | null;
      latest_ts: number | null;
    }>(
      db,
      `SELECT t.id, t.build_state, t.open, l.late_fix_count::float8 AS late_fixes, l.ts::float8 AS latest_ts
         FROM (SELECT $1::varchar AS company_id, $2::varchar AS member_id) k
         LEFT JOIN LATERAL (SELECT id, build_state, open FROM tracks WHERE company_id = k.company_id AND member_id = k.member_id
                             ORDER BY start_ts DESC LIMIT 1) t ON true
         LEFT JOIN member_locations l ON l.company_id = k.company_id AND l.member_id = k.member_id`,
      [companyId, memberId],
    ))!;
    const marker = { lateFixes: row.late_fixes, latestTs: row.latest_ts };
    return { newest: row.id === null ? null : { id: row.id, build_state: row.build_state, open: row.open! }, marker };
  }

  /**
   * The fast path of {@link rebuild}: when the member's newest track is open and has a build state,
   * and no fix it has not seen lies between `fromTs` and its last fix, the new fixes are split
   * together with the track's tail from where its stop search resumes; if they continue the track (one
   * segment, nothing cut), they are added to its running figures and its path. Anything else (a stop,
   * a gap, a tracking-off, a late fix) answers null and the track is rebuilt from its fixes. Same
   * result as the rebuild, reading only the tail.
   *
   * "No unseen fix" is proven without reading the track when the task's range starts within the track
   * and the member's late-fix count is the one the state saw (every fix stored older than the member's
   * latest counts, and the latest was at least the track's last fix when the state was written, as
   * `latestTs` ≥ `lastFixTs` shows); otherwise, as before, by the track's fix count from
   * `min(fromTs, first fix)` to its last fix — a late fix before the track, counted in the marker but
   * outside a rebuild's range, has a task of its own whose range starts before the track.
   */
  private async append(
    db: Queryable,
    companyId: string,
    memberId: string,
    fromTs: number,
    now: number,
    newest: { id: string; build_state: TrackBuildState | null; open: boolean } | null,
    marker: LateMarker,
  ): Promise<RebuildSummary | null> {
    const st = newest?.build_state;
    if (!newest?.open || !st || st.v !== 1 || st.acc.count < 2) return null;
    const unchanged =
      fromTs >= st.firstFixTs &&
      st.lateFixes != null &&
      st.lateFixes === marker.lateFixes &&
      marker.latestTs !== null &&
      marker.latestTs >= st.lastFixTs;
    if (!unchanged) {
      const [{ n }] = await query<{ n: number }>(
        db,
        `SELECT count(*)::int AS n FROM location_fixes WHERE company_id = $1 AND member_id = $2 AND ts >= $3 AND ts <= $4`,
        [companyId, memberId, Math.min(fromTs, st.firstFixTs), st.lastFixTs],
      );
      if (n !== st.fixCount) return null;
    }
    const window = await this.fixesFrom(db, companyId, memberId, st.resumeTs);
    const offs = await query<{ ts: string }>(
      db,
      `SELECT ts FROM clock_events WHERE company_id = $1 AND member_id = $2 AND tracking = false AND ts >= $3 ORDER BY ts`,
      [companyId, memberId, st.resumeTs],
    );
    const segments = splitTracks(
      window,
      offs.map((o) => Number(o.ts)),
      this.rules,
      st.startsAtDeparture && st.resumeTs === st.firstFixTs,
    );
    if (segments.length !== 1 || segments[0].fixes.length !== window.length) return null;
    const added = window.filter((f) => f.ts > st.lastFixTs);
    const acc = new TrackAccumulator(st.acc);
    const addedUsed = added.filter((f) => isUsable(f, this.rules));
    for (const f of addedUsed) acc.add(f);
    const box = acc.plainBox();
    if (!box) return null;
    const stats = acc.stats(box);
    const open = segments[0].endedBy === null && now - stats.endTs < this.rules.gapMs;
    const state: TrackBuildState | null = open
      ? {
          v: 1,
          acc: acc.state()!,
          fixCount: st.fixCount + added.length,
          firstFixTs: st.firstFixTs,
          lastFixTs: window[window.length - 1].ts,
          startsAtDeparture: st.startsAtDeparture,
          resumeTs: stopSearchResumeTs(segments[0], this.rules),
          lateFixes: marker.lateFixes,
        }
      : null;
    const summary: RebuildSummary = {
      mode: 'append',
      from: st.resumeTs,
      inserted: 0,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      lateCheck: unchanged ? 'marker' : 'count',
    };
    if (!added.length && open) {
      summary.unchanged = 1;
      return summary;
    }
    const coordinates = addedUsed.map((f) => [f.lng, f.lat]);
    // ST_MakeLine joins lines and points (not multipoints)
    const newPoints = !coordinates.length
      ? null
      : JSON.stringify(coordinates.length === 1 ? { type: 'Point', coordinates: coordinates[0] } : { type: 'LineString', coordinates });
    const n0 = STAT_COLUMNS.length;
    // the polylines grow by the characters the accumulator encoded (its stats hold only those)
    const appendTo = new Set(['short_encoded', 'course_encoded']);
    await db.query(
      `UPDATE tracks SET ${STAT_COLUMNS.map(([, c], i) => (appendTo.has(c) ? `${c} = ${c} || $${i + 3}` : `${c} = $${i + 3}`)).join(', ')},
              open = $${n0 + 3}, build_state = $${n0 + 4}::jsonb, updated_at = $${n0 + 5},
              path = CASE WHEN $${n0 + 6}::text IS NULL THEN path
                          ELSE ST_MakeLine(path::geometry, ST_GeomFromGeoJSON($${n0 + 6}::text))::geography END
        WHERE company_id = $1 AND id = $2`,
      [companyId, newest.id, ...STAT_COLUMNS.map(([k]) => stats[k]), open, state && JSON.stringify(state), now, newPoints],
    );
    summary.updated = 1;
    return summary;
  }

  /** The ts the rebuild starts at (a track's start), or -1 for the member's whole history. */
  private async rebuildStart(db: Queryable, companyId: string, memberId: string, fromTs: number): Promise<number> {
    const [containing, previous] = await query<{ start_ts: string }>(
      db,
      `SELECT start_ts FROM tracks WHERE company_id = $1 AND member_id = $2 AND start_ts <= $3 ORDER BY start_ts DESC LIMIT 2`,
      [companyId, memberId, fromTs],
    );
    if (!containing) return -1;
    const start = Number(containing.start_ts);
    if (!(await this.isDeparture(db, companyId, memberId, start))) return start;
    // the stop before it may change (a late fix within it moves the departure): from the track before
    return previous ? Number(previous.start_ts) : -1;
  }

  /**
   * Whether a track starting at `startTs` starts at a stop's departure rather than a run's start:
   * the fix before it is less than the gap limit older, with no tracking-off between.
   */
  private async isDeparture(db: Queryable, companyId: string, memberId: string, startTs: number): Promise<boolean> {
    const row = await queryOne<{ ts: string }>(
      db,
      `SELECT ts FROM location_fixes WHERE company_id = $1 AND member_id = $2 AND ts < $3 ORDER BY ts DESC LIMIT 1`,
      [companyId, memberId, startTs],
    );
    if (!row || startTs - Number(row.ts) >= this.rules.gapMs) return false;
    const off = await queryOne(
      db,
      `SELECT 1 FROM clock_events WHERE company_id = $1 AND member_id = $2 AND tracking = false AND ts >= $3 AND ts < $4 LIMIT 1`,
      [companyId, memberId, row.ts, startTs],
    );
    return !off;
  }

  private async fixesFrom(db: Queryable, companyId: string, memberId: string, from: number): Promise<Fix[]> {
    const rows = await query<Record<keyof Fix, string | number | null>>(
      db,
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

  private build(segment: Segment, newest: boolean, now: number, marker: LateMarker): Built {
    const stats = trackStats(segment.fixes, this.rules);
    const used = usedFixes(segment.fixes, this.rules);
    const path = used.length >= 2 ? JSON.stringify({ type: 'LineString', coordinates: used.map((f) => [f.lng, f.lat]) }) : null;
    // the newest track stays open until the split rule closes it, or its last fix is a gap old
    const open = newest && segment.endedBy === null && now - stats.endTs < this.rules.gapMs;
    return { stats, path, open, state: open ? this.buildState(segment, marker) : null };
  }

  /** The open track's {@link TrackBuildState}; null when none of its fixes is usable (then it is only rebuilt). */
  private buildState(segment: Segment, marker: LateMarker): TrackBuildState | null {
    const acc = new TrackAccumulator();
    for (const f of segment.fixes) if (isUsable(f, this.rules)) acc.add(f);
    const state = acc.state();
    if (!state) return null;
    return {
      v: 1,
      acc: state,
      fixCount: segment.fixes.length,
      firstFixTs: segment.fixes[0].ts,
      lastFixTs: segment.fixes[segment.fixes.length - 1].ts,
      startsAtDeparture: segment.startsAtDeparture,
      resumeTs: stopSearchResumeTs(segment, this.rules),
      lateFixes: marker.lateFixes,
    };
  }

  private async storedFrom(db: Queryable, companyId: string, memberId: string, from: number): Promise<StoredTrack[]> {
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
   * Writes the built tracks over the stored ones from the rebuild's start: a built track takes the id
   * and share token of the first stored track overlapping it in time that no earlier built track took
   * (updated only when a figure changed), else a new id and token; stored tracks nobody took are
   * deleted with their share rows.
   */
  private async apply(
    db: Queryable,
    companyId: string,
    memberId: string,
    built: Built[],
    existing: StoredTrack[],
    now: number,
  ): Promise<Omit<RebuildSummary, 'from' | 'mode'>> {
    const taken = new Set<number>();
    const counts = { inserted: 0, updated: 0, unchanged: 0, deleted: 0 };
    for (const b of built) {
      const match = existing.find((t) => !taken.has(t.id) && t.startTs <= b.stats.endTs && t.endTs >= b.stats.startTs);
      if (match) {
        taken.add(match.id);
        if (sameTrack(match, b)) {
          counts.unchanged++;
          continue;
        }
        await db.query(`UPDATE tracks SET ${UPDATE_SET} WHERE company_id = $1 AND id = $2`, [companyId, match.id, ...values(b), now]);
        counts.updated++;
      } else {
        const token = randomBytes(16).toString('hex');
        const [row] = await query<{ id: string }>(
          db,
          `INSERT INTO tracks (company_id, member_id, share_token, ${COLUMNS.join(', ')}, updated_at)
           VALUES ($1, $2, $3, ${COLUMNS.map((c, i) => (c === 'path' ? `ST_GeomFromGeoJSON($${i + 4}::text)::geography` : `$${i + 4}`)).join(', ')}, $${COLUMNS.length + 4})
           RETURNING id`,
          [companyId, memberId, token, ...values(b), now],
        );
        await db.query(`INSERT INTO track_shares (token, company_id, track_id) VALUES ($1, $2, $3)`, [token, companyId, row.id]);
        counts.inserted++;
      }
    }
    const stale = existing.filter((t) => !taken.has(t.id)).map((t) => t.id);
    if (stale.length) {
      await db.query(`DELETE FROM track_shares WHERE company_id = $1 AND track_id = ANY($2::bigint[])`, [companyId, stale]);
      await db.query(`DELETE FROM tracks WHERE company_id = $1 AND id = ANY($2::bigint[])`, [companyId, stale]);
      counts.deleted = stale.length;
    }
    return counts;
  }
}

const STAT_COLUMNS: Array<[keyof TrackStats, string]> = [
  ['startTs', 'start_ts'],
  ['endTs', 'end_ts'],
  ['startLat', 'start_lat'],
  ['startLng', 'start_lng'],
  ['endLat', 'end_lat'],
  ['endLng', 'end_lng'],
  ['distance', 'distance'],
  ['waypointCount', 'waypoint_count'],
  ['speedAvg', 'speed_avg'],
  ['speedMax', 'speed_max'],
  ['altitudeMin', 'altitude_min'],
  ['altitudeMax', 'altitude_max'],
  ['altitudeGain', 'altitude_gain'],
  ['altitudeLoss', 'altitude_loss'],
  ['shortEncoded', 'short_encoded'],
  ['courseEncoded', 'course_encoded'],
  ['latMin', 'lat_min'],
  ['latMax', 'lat_max'],
  ['lngMin', 'lng_min'],
  ['lngMax', 'lng_max'],
];
const COLUMNS = [...STAT_COLUMNS.map(([, c]) => c), 'path', 'open', 'build_state'];
/** `col = $3, …` after `$1` company and `$2` id, then `updated_at`. */
const UPDATE_SET = [
  ...COLUMNS.map((c, i) => (c === 'path' ? `path = ST_GeomFromGeoJSON($${i + 3}::text)::geography` : `${c} = $${i + 3}`)),
  `updated_at = $${COLUMNS.length + 3}`,
].join(', ');

function values(b: Built): unknown[] {
  return [...STAT_COLUMNS.map(([k]) => b.stats[k]), b.path, b.open, b.state && JSON.stringify(b.state)];
}

/** A stored track already equal to a built one (every figure; the path follows from the same fixes). */
function sameTrack(t: StoredTrack, b: Built): boolean {
  return t.open === b.open && STAT_COLUMNS.every(([k]) => t[k] === b.stats[k]) && isDeepStrictEqual(t.buildState, b.state);
}
