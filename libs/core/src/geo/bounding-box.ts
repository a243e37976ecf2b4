import { LatLng } from './geodesic';

/**
 * A latitude/longitude box in degrees. When it crosses the antimeridian `minLng > maxLng` (the box
 * runs east from `minLng` through ±180 to `maxLng`), the convention of GeoJSON's bbox
 * (RFC 7946 §5.2).
 */
export interface BoundingBox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

/**
 * The smallest box holding every point. Latitudes: their min and max. Longitudes: the shortest arc
 * that covers them all — the circle minus its widest gap between neighbouring longitudes — so points
 * on both sides of the antimeridian (179.9 and -179.9) give a box 0.2° wide with `minLng` 179.9 and
 * `maxLng` -179.9 (see {@link BoundingBox}), not one spanning the globe. Points whose longitudes leave
 * no gap wider than the one across ±180 give the plain `minLng ≤ maxLng` box.
 * @returns null for no points.
 */
export function boundingBox(points: readonly LatLng[]): BoundingBox | null {
  if (!points.length) return null;
  let minLat = Infinity;
  let maxLat = -Infinity;
  for (const p of points) {
    if (p.lat < minLat) minLat = p.lat;
    if (p.lat > maxLat) maxLat = p.lat;
  }
  const lngs = points.map((p) => p.lng).sort((a, b) => a - b);
  // the gap across the antimeridian, from the easternmost round to the westernmost
  let widest = lngs[0] + 360 - lngs[lngs.length - 1];
  let minLng = lngs[0];
  let maxLng = lngs[lngs.length - 1];
  for (let i = 1; i < lngs.length; i++) {
    const gap = lngs[i] - lngs[i - 1];
    if (gap > widest) {
      widest = gap;
      minLng = lngs[i];
      maxLng = lngs[i - 1];
    }
  }
  return { minLat, minLng, maxLat, maxLng };
}

/** Whether the box holds the point (edges included), for boxes across the antimeridian too. */
export function boxContains(box: BoundingBox, p: LatLng): boolean {
  if (p.lat < box.minLat || p.lat > box.maxLat) return false;
  return box.minLng <= box.maxLng ? p.lng >= box.minLng && p.lng <= box.maxLng : p.lng >= box.minLng || p.lng <= box.maxLng;
}
