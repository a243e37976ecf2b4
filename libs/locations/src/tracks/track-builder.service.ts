import { randomBytes } from 'node:crypto';
import { AppConfig, Queryable } from '@app/core';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { FixConsumer, FixConsumerRegistry, FixesTask } from '../fix-consumers.registry';
import { readCompanyStopMinutes } from './companies-stop-minutes.read';
import { isDeepStrictEqual } from 'node:util';
import { isUsable, Segment, splitRules, SplitRules, splitTracks, stopSearchResumeTs } from './split';
import { TrackAccumulator, trackStats, usedFixes } from './stats';
import { LateMarker, NewestTrack, STAT_COLUMNS, StoredTrack, TrackBuildState, TrackWrite } from './track-rows';
import { TracksRepository } from './tracks.repository';

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
  /** The rules under the server's TRACK_STOP_MINUTES (a company without `stop_minutes` of its own). */
  private readonly defaultRules: SplitRules;

  constructor(
    private readonly repo: TracksRepository,
    private readonly registry: FixConsumerRegistry,
    config: AppConfig,
  ) {
    this.defaultRules = splitRules(config.TRACK_STOP_MINUTES);
  }

  /** The split rule's limits for a company: its `stop_minutes` (read in `db`), else TRACK_STOP_MINUTES. */
  private async rulesOf(db: Queryable, companyId: string): Promise<SplitRules> {
    const minutes = await readCompanyStopMinutes(db, companyId);
    return minutes === null ? this.defaultRules : splitRules(minutes);
  }

  /** Run by the debounced `tracks` task (see FixTasksProducer), not on every call's fixes. */
  readonly task = 'tracks' as const;

  onModuleInit(): void {
    this.registry.register(this);
  }

  async onFixes(task: FixesTask): Promise<void> {
    await this.rebuild(task.companyId, task.memberId, task.fromTs);
  }

  /**
   * Rebuilds the member's tracks that fixes from `fromTs` (ms) on can affect; `now` (ms) decides
   * whether the newest track is still open (its last fix less than the gap limit ago). The stop
   * threshold is the company's `stop_minutes` (else TRACK_STOP_MINUTES), read in the transaction: a
   * change applies from the next rebuild on; tracks already built keep their split.
   */
  async rebuild(companyId: string, memberId: string, fromTs: number, now = Date.now()): Promise<RebuildSummary> {
    return this.repo.transaction(async (manager) => {
      await this.repo.lockMember(manager, companyId, memberId);
      const rules = await this.rulesOf(manager, companyId);
      const { newest, marker } = await this.repo.newestTrack(manager, companyId, memberId);
      const appended = await this.append(manager, rules, companyId, memberId, fromTs, now, newest, marker);
      if (appended) return appended;
      const from = await this.rebuildStart(manager, rules, companyId, memberId, fromTs);
      const afterStop = from >= 0 && (await this.isDeparture(manager, rules, companyId, memberId, from));
      const fixes = await this.repo.fixesFrom(manager, companyId, memberId, from);
      const offs = await this.repo.trackingOffs(manager, companyId, memberId, from);
      const segments = splitTracks(fixes, offs, rules, afterStop);
      const built = segments.map((seg, i) => this.build(seg, rules, i === segments.length - 1, now, marker));
      const existing = await this.repo.storedFrom(manager, companyId, memberId, from);
      return { mode: 'rebuild' as const, from, ...(await this.apply(manager, companyId, memberId, built, existing, now)) };
    });
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
    rules: SplitRules,
    companyId: string,
    memberId: string,
    fromTs: number,
    now: number,
    newest: NewestTrack | null,
    marker: LateMarker,
  ): Promise<RebuildSummary | null> {
    const st = newest?.build_state;
    if (!newest?.open || !st || st.v !== 1 || st.acc.count < 2) return null;
    // built under another stop threshold (the company's changed): rebuild under the current one
    if ((st.stopMs ?? this.defaultRules.stopMs) !== rules.stopMs) return null;
    const unchanged =
      fromTs >= st.firstFixTs &&
      st.lateFixes != null &&
      st.lateFixes === marker.lateFixes &&
      marker.latestTs !== null &&
      marker.latestTs >= st.lastFixTs;
    if (!unchanged) {
      const n = await this.repo.countFixes(db, companyId, memberId, Math.min(fromTs, st.firstFixTs), st.lastFixTs);
      if (n !== st.fixCount) return null;
    }
    const window = await this.repo.fixesFrom(db, companyId, memberId, st.resumeTs);
    const offs = await this.repo.trackingOffs(db, companyId, memberId, st.resumeTs);
    const segments = splitTracks(window, offs, rules, st.startsAtDeparture && st.resumeTs === st.firstFixTs);
    if (segments.length !== 1 || segments[0].fixes.length !== window.length) return null;
    const added = window.filter((f) => f.ts > st.lastFixTs);
    const acc = new TrackAccumulator(st.acc);
    const addedUsed = added.filter((f) => isUsable(f, rules));
    for (const f of addedUsed) acc.add(f);
    const box = acc.plainBox();
    if (!box) return null;
    const stats = acc.stats(box);
    const open = segments[0].endedBy === null && now - stats.endTs < rules.gapMs;
    const state: TrackBuildState | null = open
      ? {
          v: 1,
          acc: acc.state()!,
          fixCount: st.fixCount + added.length,
          firstFixTs: st.firstFixTs,
          lastFixTs: window[window.length - 1].ts,
          startsAtDeparture: st.startsAtDeparture,
          resumeTs: stopSearchResumeTs(segments[0], rules),
          lateFixes: marker.lateFixes,
          stopMs: rules.stopMs,
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
    await this.repo.appendToTrack(db, companyId, newest.id, { stats, open, state, now, newPoints });
    summary.updated = 1;
    return summary;
  }

  /** The ts the rebuild starts at (a track's start), or -1 for the member's whole history. */
  private async rebuildStart(db: Queryable, rules: SplitRules, companyId: string, memberId: string, fromTs: number): Promise<number> {
    const [containing, previous] = await this.repo.startsUpTo(db, companyId, memberId, fromTs);
    if (containing === undefined) return -1;
    const start = containing;
    if (!(await this.isDeparture(db, rules, companyId, memberId, start))) return start;
    // the stop before it may change (a late fix within it moves the departure): from the track before
    return previous !== undefined ? previous : -1;
  }

  /**
   * Whether a track starting at `startTs` starts at a stop's departure rather than a run's start:
   * the fix before it is less than the gap limit older, with no tracking-off between.
   */
  private async isDeparture(db: Queryable, rules: SplitRules, companyId: string, memberId: string, startTs: number): Promise<boolean> {
    const before = await this.repo.fixBefore(db, companyId, memberId, startTs);
    if (before === null || startTs - before >= rules.gapMs) return false;
    return !(await this.repo.trackingOffBetween(db, companyId, memberId, before, startTs));
  }

  private build(segment: Segment, rules: SplitRules, newest: boolean, now: number, marker: LateMarker): TrackWrite {
    const stats = trackStats(segment.fixes, rules);
    const used = usedFixes(segment.fixes, rules);
    const path = used.length >= 2 ? JSON.stringify({ type: 'LineString', coordinates: used.map((f) => [f.lng, f.lat]) }) : null;
    // the newest track stays open until the split rule closes it, or its last fix is a gap old
    const open = newest && segment.endedBy === null && now - stats.endTs < rules.gapMs;
    return { stats, path, open, state: open ? this.buildState(segment, rules, marker) : null };
  }

  /** The open track's {@link TrackBuildState}; null when none of its fixes is usable (then it is only rebuilt). */
  private buildState(segment: Segment, rules: SplitRules, marker: LateMarker): TrackBuildState | null {
    const acc = new TrackAccumulator();
    for (const f of segment.fixes) if (isUsable(f, rules)) acc.add(f);
    const state = acc.state();
    if (!state) return null;
    return {
      v: 1,
      acc: state,
      fixCount: segment.fixes.length,
      firstFixTs: segment.fixes[0].ts,
      lastFixTs: segment.fixes[segment.fixes.length - 1].ts,
      startsAtDeparture: segment.startsAtDeparture,
      resumeTs: stopSearchResumeTs(segment, rules),
      lateFixes: marker.lateFixes,
      stopMs: rules.stopMs,
    };
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
    built: TrackWrite[],
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
        await this.repo.updateTrack(db, companyId, match.id, b, now);
        counts.updated++;
      } else {
        const token = randomBytes(16).toString('hex');
        await this.repo.insertTrack(db, companyId, memberId, token, b, now);
        counts.inserted++;
      }
    }
    const stale = existing.filter((t) => !taken.has(t.id)).map((t) => t.id);
    if (stale.length) {
      await this.repo.deleteTracks(db, companyId, stale);
      counts.deleted = stale.length;
    }
    return counts;
  }
}

/** A stored track already equal to a built one (every figure; the path follows from the same fixes). */
function sameTrack(t: StoredTrack, b: TrackWrite): boolean {
  return t.open === b.open && STAT_COLUMNS.every(([k]) => t[k] === b.stats[k]) && isDeepStrictEqual(t.buildState, b.state);
}
