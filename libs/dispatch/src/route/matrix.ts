import { Geodesic } from 'geographiclib-geodesic';
import { DistanceMatrix, GeoPoint } from '../types';

const WGS84 = Geodesic.WGS84;

/**
 * The n×n matrix of geodesic distances in m between `points` on the WGS84 ellipsoid: Karney's
 * solution of the inverse problem (C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55,
 * 2013) through GeographicLib's JavaScript port `geographiclib-geodesic` — the same figures as
 * `distanceM` in `@app/core/geo/geodesic` and PostGIS `ST_Distance(geography, geography)`. Symmetric
 * (each pair is solved once), zero diagonal. Pure (no Nest, no I/O), so it runs in a worker thread.
 * Cost: n(n−1)/2 inverse problems, ~7 µs each as measured on a busy 2-core machine (n = 300: 0.3 s,
 * n = 60: ~12 ms; see docs/route-solver.md).
 */
export function geodesicMatrix(points: readonly GeoPoint[]): DistanceMatrix {
  const n = points.length;
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = points[i];
    for (let j = i + 1; j < n; j++) {
      const b = points[j];
      const s = WGS84.Inverse(a.lat, a.lng, b.lat, b.lng, Geodesic.DISTANCE).s12 ?? NaN;
      d[i * n + j] = s;
      d[j * n + i] = s;
    }
  }
  return { n, d };
}

/**
 * The length of `order` in `m`'s units: the sum of its consecutive edges, plus the edge back from the
 * last node to the first when `kind` is `closed`. An empty or one-node order has length 0.
 */
export function tourLength(m: DistanceMatrix, order: readonly number[], kind: 'closed' | 'path'): number {
  const { n, d } = m;
  let s = 0;
  for (let i = 1; i < order.length; i++) s += d[order[i - 1] * n + order[i]];
  if (kind === 'closed' && order.length > 1) s += d[order[order.length - 1] * n + order[0]];
  return s;
}
