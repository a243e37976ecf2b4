import type { Track } from '../entities/track.entity';

/** The spec's Track entry as gettracks answers it (units: ms, degrees, m, m/s). */
export interface TrackEntry {
  id: number;
  owner_uid: string;
  kind: 'track_entry';
  labels: number;
  start_ts: number;
  end_ts: number;
  start_lat: number;
  start_lng: number;
  end_lat: number;
  end_lng: number;
  distance: number;
  waypoint_count: number;
  speed_avg: number;
  speed_max: number;
  altitude_min: number | null;
  altitude_max: number | null;
  altitude_gain: number | null;
  altitude_loss: number | null;
  short_encoded: string;
  /** only with `withCourse: true` */
  course_encoded?: string;
  lat_min: number;
  lat_max: number;
  lng_min: number;
  lng_max: number;
  share_url: string;
}

/** `{base}/share/tracks/<token>`, the public link of a track (CONTRACTS.md "Tracks"). */
export function shareUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/share/tracks/${token}`;
}

/** A stored track as a Track entry; `course_encoded` only when `withCourse`. */
export function toTrackEntry(t: Track, publicBaseUrl: string, withCourse = false): TrackEntry {
  return {
    id: t.id,
    owner_uid: t.memberId,
    kind: 'track_entry',
    labels: 0,
    start_ts: t.startTs,
    end_ts: t.endTs,
    start_lat: t.startLat,
    start_lng: t.startLng,
    end_lat: t.endLat,
    end_lng: t.endLng,
    distance: t.distance,
    waypoint_count: t.waypointCount,
    speed_avg: t.speedAvg,
    speed_max: t.speedMax,
    altitude_min: t.altitudeMin,
    altitude_max: t.altitudeMax,
    altitude_gain: t.altitudeGain,
    altitude_loss: t.altitudeLoss,
    short_encoded: t.shortEncoded,
    ...(withCourse ? { course_encoded: t.courseEncoded } : {}),
    lat_min: t.latMin,
    lat_max: t.latMax,
    lng_min: t.lngMin,
    lng_max: t.lngMax,
    share_url: shareUrl(publicBaseUrl, t.shareToken),
  };
}

/** PUBLIC_BASE_URL, else `http://127.0.0.1:$PORT` (CONTRACTS.md "Tracks"). */
export function publicBaseUrl(config: { PUBLIC_BASE_URL?: string; PORT: number }): string {
  return config.PUBLIC_BASE_URL ?? `http://127.0.0.1:${config.PORT}`;
}
