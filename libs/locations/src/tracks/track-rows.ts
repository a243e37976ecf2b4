import type { TrackAccumulatorState, TrackStats } from './stats';

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
  /**
   * ms: the stop threshold the state was built with (the company's `stop_minutes`, else
   * TRACK_STOP_MINUTES; absent in states written before it existed: that default). An append under
   * another threshold rebuilds instead: the stop search's resume point depends on it.
   */
  stopMs?: number;
}

/**
 * What a build reads of `member_locations` before any fix: the member's late-fix count and latest
 * `ts` (both null without a row). Read first, so a late fix committed after it changes the count the
 * next build reads.
 */
export interface LateMarker {
  lateFixes: number | null;
  latestTs: number | null;
}

/** A member's newest track as a build first reads it. */
export interface NewestTrack {
  id: string;
  build_state: TrackBuildState | null;
  open: boolean;
}

/** A stored track as a rebuild compares it with the built ones. */
export interface StoredTrack extends TrackStats {
  id: number;
  shareToken: string;
  open: boolean;
  buildState: TrackBuildState | null;
}

/** A built track as written: its figures, path (GeoJSON text; null under two used fixes), whether it is open, and its build state. */
export interface TrackWrite {
  stats: TrackStats;
  path: string | null;
  open: boolean;
  state: TrackBuildState | null;
}

/** The figures of a track and their `tracks` columns. */
export const STAT_COLUMNS: Array<[keyof TrackStats, string]> = [
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
