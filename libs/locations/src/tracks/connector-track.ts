import type { TrackEntry } from './track-view';

/**
 * A track as `GET /v1/tracks` answers it (CONTRACTS.md "Wave 3: connector for automation platforms"):
 * the spec's Track entry, field for field, in camelCase (`start_ts` → `startTs`). Units: ms, degrees,
 * m, m/s; `shortEncoded` is the path in Google's polyline encoding (precision 5, `lat,lng`).
 * `courseEncoded` is left out (gettracks' `withCourse` has no connector parameter).
 */
export interface ConnectorTrack {
  id: number;
  ownerUid: string;
  kind: 'track_entry';
  labels: number;
  startTs: number;
  endTs: number;
  startLat: number;
  startLng: number;
  endLat: number;
  endLng: number;
  distance: number;
  waypointCount: number;
  speedAvg: number;
  speedMax: number;
  altitudeMin: number | null;
  altitudeMax: number | null;
  altitudeGain: number | null;
  altitudeLoss: number | null;
  shortEncoded: string;
  latMin: number;
  latMax: number;
  lngMin: number;
  lngMax: number;
  shareUrl: string;
}

/** A Track entry (gettracks) as the connector's track. */
export function toConnectorTrack(t: TrackEntry): ConnectorTrack {
  return {
    id: t.id,
    ownerUid: t.owner_uid,
    kind: t.kind,
    labels: t.labels,
    startTs: t.start_ts,
    endTs: t.end_ts,
    startLat: t.start_lat,
    startLng: t.start_lng,
    endLat: t.end_lat,
    endLng: t.end_lng,
    distance: t.distance,
    waypointCount: t.waypoint_count,
    speedAvg: t.speed_avg,
    speedMax: t.speed_max,
    altitudeMin: t.altitude_min,
    altitudeMax: t.altitude_max,
    altitudeGain: t.altitude_gain,
    altitudeLoss: t.altitude_loss,
    shortEncoded: t.short_encoded,
    latMin: t.lat_min,
    latMax: t.lat_max,
    lngMin: t.lng_min,
    lngMax: t.lng_max,
    shareUrl: t.share_url,
  };
}
