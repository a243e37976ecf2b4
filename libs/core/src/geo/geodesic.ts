import { Geodesic } from 'geographiclib-geodesic';

/** A position in degrees on WGS84: `lat` in [-90, 90], `lng` in [-180, 180] (east positive). */
export interface LatLng {
  lat: number;
  lng: number;
}

/** The mean Earth radius R₁ = (2a + b) / 3 of WGS84, in m (IUGG; Moritz, "Geodetic Reference System 1980"). */
export const MEAN_EARTH_RADIUS_M = 6_371_008.8;

const WGS84 = Geodesic.WGS84;
const DEG = Math.PI / 180;

/**
 * The distance between two positions in m along the geodesic on the WGS84 ellipsoid — what PostGIS
 * `ST_Distance(geography, geography)` answers, and what CONTRACTS.md puts on the wire. Solves the
 * inverse geodesic problem with Karney's algorithm (C. F. F. Karney, "Algorithms for geodesics",
 * J. Geodesy 87, 43–55, 2013, doi:10.1007/s00190-012-0578-z) through GeographicLib's JavaScript port
 * (`geographiclib-geodesic`): accurate to ~15 nm, for any pair including nearly antipodal points.
 * About 10 µs a pair; for bulk in-memory work where 0.5 % will do, use {@link haversineM}.
 */
export function distanceM(a: LatLng, b: LatLng): number {
  return WGS84.Inverse(a.lat, a.lng, b.lat, b.lng, Geodesic.DISTANCE).s12 ?? NaN;
}

/**
 * The initial bearing (forward azimuth) of the geodesic from `a` to `b` on WGS84, in degrees
 * clockwise from true north, in [0, 360) — Karney's algorithm as {@link distanceM}. For coincident
 * points GeographicLib answers the azimuth of a meridian (0 or 180).
 */
export function initialBearingDeg(a: LatLng, b: LatLng): number {
  const azi1 = WGS84.Inverse(a.lat, a.lng, b.lat, b.lng, Geodesic.AZIMUTH).azi1 ?? NaN;
  return normalizeDeg(azi1);
}

/**
 * The great-circle distance in m on a sphere of {@link MEAN_EARTH_RADIUS_M}, by the haversine formula
 * (R. W. Sinnott, "Virtues of the Haversine", Sky and Telescope 68(2), 1984). Fast (no iteration) and
 * within ~0.5 % of the ellipsoidal {@link distanceM} (e.g. JFK–LHR: +0.17 %); for in-memory bulk
 * work such as a solver's distance matrix, never for distances put on the wire.
 */
export function haversineM(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * DEG;
  const dLng = (b.lng - a.lng) * DEG;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * DEG) * Math.cos(b.lat * DEG) * Math.sin(dLng / 2) ** 2;
  return 2 * MEAN_EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** An angle in degrees folded into [0, 360). */
export function normalizeDeg(deg: number): number {
  const d = deg % 360;
  return d < 0 ? d + 360 : d === 0 ? 0 : d; // `d === 0` turns -0 into 0
}

/** WGS84 semi-major axis a (m) and first eccentricity squared e² (NIMA TR8350.2). */
const WGS84_A = 6_378_137;
const WGS84_E2 = 6.69437999014e-3;

/**
 * Whether `b` lies within `radiusM` metres of `a` on the WGS84 ellipsoid — exactly as
 * `distanceM(a, b) <= radiusM`, but decided without Karney's iteration when the answer is clear: a
 * local planar estimate with the ellipsoid's radii of curvature at `a` (meridional M and prime
 * vertical N: M = a(1−e²)/W³, N = a/W, W = √(1 − e² sin²φ); Snyder, "Map Projections — A Working
 * Manual", USGS 1987, eq. 4-18 and 4-20) is within a fraction of a percent for the short distances
 * this is for (stop and geofence radii, up to a few km); only points whose estimate falls within 1 %
 * of `radiusM`, or lie near a pole, are measured with {@link distanceM}. For bulk radius tests (e.g.
 * stay-point detection) where the geodesic would dominate.
 */
export function withinM(a: LatLng, b: LatLng, radiusM: number): boolean {
  if (Math.abs(a.lat) < 80 && Math.abs(b.lat) < 80) {
    let dLng = b.lng - a.lng;
    if (dLng > 180) dLng -= 360;
    else if (dLng < -180) dLng += 360;
    const sin = Math.sin(a.lat * DEG);
    const w = Math.sqrt(1 - WGS84_E2 * sin * sin);
    const m = (WGS84_A * (1 - WGS84_E2)) / (w * w * w);
    const n = WGS84_A / w;
    const dy = (b.lat - a.lat) * DEG * m;
    const dx = dLng * DEG * n * Math.cos(((a.lat + b.lat) / 2) * DEG);
    const estimate = Math.sqrt(dx * dx + dy * dy);
    if (estimate <= radiusM * 0.99) return true;
    if (estimate >= radiusM * 1.01) return false;
  }
  return distanceM(a, b) <= radiusM;
}
