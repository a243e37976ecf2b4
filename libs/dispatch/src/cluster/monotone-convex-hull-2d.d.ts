/** `monotone-convex-hull-2d` (Mikola Lysenko; no published types): Andrew's monotone chain with robust orientation tests. */
declare module 'monotone-convex-hull-2d' {
  /**
   * @param points `[x, y]` pairs
   * @returns indices into `points` of the hull's vertices, in order around it; fewer than 3 points:
   *   their indices (two equal points: one)
   */
  function monotoneConvexHull2D(points: ReadonlyArray<readonly [number, number]>): number[];
  export = monotoneConvexHull2D;
}
