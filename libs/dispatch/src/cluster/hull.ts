import monotoneConvexHull2D from 'monotone-convex-hull-2d';

/**
 * The convex hull of planar points (`[x, y]`), in order around it (clockwise with y up) without repeating the first vertex,
 * by `monotone-convex-hull-2d` (Andrew's monotone chain with robust orientation predicates, so
 * collinear and repeated points are handled exactly). Fewer than 3 distinct points: those points.
 */
export function convexHull<P extends readonly [number, number]>(points: readonly P[]): P[] {
  if (points.length === 0) return [];
  return monotoneConvexHull2D(points).map((i) => points[i]);
}
