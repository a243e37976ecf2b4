import type { GeoPoint } from '../types';

const DEG = Math.PI / 180;

/**
 * Positions as 3-D unit vectors, packed `[x0, y0, z0, x1, …]` (a Float64Array of length 3n): latitude
 * and longitude in degrees read as spherical coordinates (the geodetic latitude taken as the sphere's,
 * as spherical k-means does; the ≤ 0.2° difference to the geocentric latitude moves nothing that matters
 * for grouping jobs). On the unit sphere the chord |u − v| = 2 sin(θ/2) grows monotonically with the
 * great-circle angle θ, so "largest dot product" = "nearest on the great circle", also across the
 * antimeridian and near the poles, where a plane's lat/lng would break.
 */
export function toUnitVectors(points: readonly GeoPoint[]): Float64Array {
  const v = new Float64Array(points.length * 3);
  for (let i = 0; i < points.length; i++) {
    const lat = points[i].lat * DEG;
    const lng = points[i].lng * DEG;
    const c = Math.cos(lat);
    v[3 * i] = c * Math.cos(lng);
    v[3 * i + 1] = c * Math.sin(lng);
    v[3 * i + 2] = Math.sin(lat);
  }
  return v;
}

/**
 * The position of a 3-D vector's direction, degrees; `lng` in (-180, 180]. The zero vector (e.g. the
 * sum of two antipodal points) has no direction: answers `fallback`.
 */
export function toGeoPoint(x: number, y: number, z: number, fallback: GeoPoint): GeoPoint {
  const r = Math.hypot(x, y, z);
  if (!(r > 1e-12)) return { lat: fallback.lat, lng: fallback.lng };
  const lat = Math.atan2(z, Math.hypot(x, y)) / DEG;
  const lng = Math.atan2(y, x) / DEG;
  return { lat, lng: lng === -180 ? 180 : lng };
}

/**
 * The spherical mean of positions: the normalised mean of their unit vectors (Dhillon & Modha,
 * "Concept decompositions for large sparse text data using clustering", Machine Learning 42, 2001 —
 * the "concept vector"). It is the unit vector c maximising Σ u·c, i.e. minimising the sum of squared
 * chords Σ |u − c|² over the sphere, and so the natural centre of a cluster of jobs on the Earth; unlike
 * the mean of latitudes and longitudes it is right across the antimeridian (179.9° and −179.9° average
 * to 180°, not 0°).
 *
 * @param points at least one position, degrees.
 * @returns degrees; for points whose vectors cancel out (e.g. two antipodes) the first point.
 * @throws RangeError for no points.
 */
export function sphericalMean(points: readonly GeoPoint[]): GeoPoint {
  if (points.length === 0) throw new RangeError('sphericalMean needs at least one point');
  const v = toUnitVectors(points);
  let x = 0;
  let y = 0;
  let z = 0;
  for (let i = 0; i < points.length; i++) {
    x += v[3 * i];
    y += v[3 * i + 1];
    z += v[3 * i + 2];
  }
  return toGeoPoint(x, y, z, points[0]);
}
