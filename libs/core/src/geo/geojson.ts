import { Point } from 'typeorm';
import { LatLng } from './geodesic';

/**
 * A position as a GeoJSON Point — `coordinates` are `[lng, lat]` (RFC 7946 §3.1.1) — the shape TypeORM
 * writes to and reads from a `geography(Point, 4326)` column (places' `location`).
 */
export function toPoint(p: LatLng): Point {
  return { type: 'Point', coordinates: [p.lng, p.lat] };
}

/** The `{lat, lng}` of a GeoJSON Point (the wire's order); null for a null column. */
export function fromPoint(point: Point | null | undefined): LatLng | null {
  if (!point) return null;
  const [lng, lat] = point.coordinates;
  return { lat, lng };
}
