import { XMLBuilder } from 'fast-xml-parser';
import type { TrackEntry } from './track-view';

/** A point of a rendered track: degrees, `ts` ms (null when only the polyline survives), `elv` m. */
export interface TrackPoint {
  lat: number;
  lng: number;
  ts: number | null;
  elv: number | null;
}

/** The GeoJSON Feature of {@link trackGeoJson} (RFC 7946). */
export interface TrackFeature {
  type: 'Feature';
  id: number;
  bbox: [number, number, number, number];
  geometry: { type: 'LineString'; coordinates: number[][] } | { type: 'Point'; coordinates: number[] };
  properties: Omit<TrackEntry, 'short_encoded' | 'course_encoded'> & { times: number[] | null };
}

/**
 * A track as an RFC 7946 GeoJSON Feature: a LineString of `[lng, lat]` positions (§3.1.1, longitude
 * first), with the elevation as a third element only when every point has one (positions of one
 * length); a one-point track is a Point (a LineString needs two positions, §3.1.4). `bbox` is
 * `[west, south, east, north]` (§5; across the antimeridian west > east, §5.2). `properties`: the
 * Track entry's fields (without the encodings) and `times`, the points' ms (null when unknown).
 */
export function trackGeoJson(track: TrackEntry, points: readonly TrackPoint[]): TrackFeature {
  const withElv = points.length > 0 && points.every((p) => p.elv !== null);
  const positions = points.map((p) => (withElv ? [p.lng, p.lat, p.elv as number] : [p.lng, p.lat]));
  const { short_encoded: _s, course_encoded: _c, ...entry } = track;
  return {
    type: 'Feature',
    id: track.id,
    bbox: [track.lng_min, track.lat_min, track.lng_max, track.lat_max],
    geometry:
      positions.length >= 2
        ? { type: 'LineString', coordinates: positions }
        : { type: 'Point', coordinates: positions[0] ?? [track.start_lng, track.start_lat] },
    properties: { ...entry, times: points.every((p) => p.ts !== null) ? points.map((p) => p.ts as number) : null },
  };
}

const GPX_NS = 'http://www.topografix.com/GPX/1/1';
const GPX_XSD = 'http://www.topografix.com/GPX/1/1/gpx.xsd';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
/** The `creator` attribute of our GPX files. */
export const GPX_CREATOR = 'Fieldwork';

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, suppressEmptyNode: true });

/** GPX's longitudeType is [-180, 180): 180 is written as -180 (the same meridian). */
const gpxLon = (lng: number) => (lng >= 180 ? lng - 360 : lng);
const isoTime = (ms: number) => new Date(ms).toISOString();

/** What {@link gpxDocument} writes: the document's name and time, its bounds and the track's segments. */
export interface GpxSpec {
  /** `metadata/name` and `trk/name` */
  name: string;
  /** `metadata/time`, ms (the first point's, usually); null: none written */
  time: number | null;
  /** `metadata/bounds`, degrees (across the antimeridian `lngMin > lngMax`); null: none written */
  bounds: { latMin: number; latMax: number; lngMin: number; lngMax: number } | null;
  /** `trk/type` */
  type: string;
  /** one `trkseg` each, points oldest first (an empty segment is an empty `trkseg`) */
  segments: ReadonlyArray<readonly TrackPoint[]>;
}

/**
 * A GPX 1.1 document (TopoGrafix schema, `http://www.topografix.com/GPX/1/1`) of one `trk` with one
 * `trkseg` per segment: `metadata` (name, time, bounds), `trkpt lat lon` holding `ele` (m) and `time`
 * (ISO 8601 UTC) when known — in the schema's element order (ele before time). Text and attributes
 * are escaped by fast-xml-parser's builder. Used by share links ({@link trackGpx}) and the gpx report.
 */
export function gpxDocument(spec: GpxSpec): string {
  const segments = spec.segments.map((points) => {
    const trkpt = points.map((p) => ({
      '@_lat': String(p.lat),
      '@_lon': String(gpxLon(p.lng)),
      ...(p.elv !== null ? { ele: String(p.elv) } : {}),
      ...(p.ts !== null ? { time: isoTime(p.ts) } : {}),
    }));
    return trkpt.length ? { trkpt } : '';
  });
  const { bounds } = spec;
  const doc = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    gpx: {
      '@_version': '1.1',
      '@_creator': GPX_CREATOR,
      '@_xmlns': GPX_NS,
      '@_xmlns:xsi': XSI_NS,
      '@_xsi:schemaLocation': `${GPX_NS} ${GPX_XSD}`,
      metadata: {
        name: spec.name,
        ...(spec.time !== null ? { time: isoTime(spec.time) } : {}),
        ...(bounds
          ? {
              bounds: {
                '@_minlat': String(bounds.latMin),
                '@_minlon': String(gpxLon(bounds.lngMin)),
                '@_maxlat': String(bounds.latMax),
                '@_maxlon': String(gpxLon(bounds.lngMax)),
              },
            }
          : {}),
      },
      trk: { name: spec.name, type: spec.type, trkseg: segments.length === 1 ? segments[0] : segments },
    },
  };
  return builder.build(doc) as string;
}

/**
 * A track as a GPX 1.1 document ({@link gpxDocument}): `metadata` (name `Track <id>`, time = the
 * track's start, bounds = the track's box), one `trk` of type `track_entry` with one `trkseg`.
 */
export function trackGpx(track: TrackEntry, points: readonly TrackPoint[]): string {
  return gpxDocument({
    name: `Track ${track.id}`,
    time: track.start_ts,
    bounds: { latMin: track.lat_min, latMax: track.lat_max, lngMin: track.lng_min, lngMax: track.lng_max },
    type: 'track_entry',
    segments: [points],
  });
}
