import type { GeoPoint } from '../types';
import { convexHull } from './hull';

/** `[lat, lng]`, degrees, rounded to 5 decimals (about 1 m). */
export type PreviewLatLng = [number, number];

/** One region of a cluster preview, in the order of distributejobs' answer (region n = cluster n - 1). */
export interface ClusterPreviewRegion {
  /** its jobs' positions: no id, no name (a public link names no job and no customer) */
  points: PreviewLatLng[];
  /** the spherical mean of its jobs; null for a region without jobs */
  centre: PreviewLatLng | null;
  /** the convex hull of `points`, its vertices in order around it; fewer than 3 distinct points: those points */
  hull: PreviewLatLng[];
}

/**
 * What the public cluster preview page draws (stored beside the SVG in `cluster_maps.regions`):
 * positions only, grouped by region. `v` versions the shape for rows kept up to 7 days.
 */
export interface ClusterPreview {
  v: 1;
  regions: ClusterPreviewRegion[];
}

const round5 = (x: number) => Math.round(x * 1e5) / 1e5;

/**
 * The preview of clustered points: each cluster's points, centre and convex hull. Hulls are taken in
 * the plane of (longitude unwrapped around the cluster's centre, latitude) — the equirectangular
 * projection the maps draw in, an affine image of it, so the hull is the one drawn; a cluster across
 * the antimeridian keeps longitudes beyond ±180 there, as the map draws it in one piece.
 *
 * @throws RangeError when `assignment` does not match `points` or names a cluster with no centre.
 */
export function clusterPreview(points: readonly GeoPoint[], assignment: readonly number[], centers: readonly GeoPoint[]): ClusterPreview {
  if (assignment.length !== points.length) throw new RangeError(`assignment has ${assignment.length} entries for ${points.length} points`);
  const regions: ClusterPreviewRegion[] = centers.map((c) => ({
    points: [],
    centre: Number.isFinite(c.lat) && Number.isFinite(c.lng) ? [round5(c.lat), round5(c.lng)] : null,
    hull: [],
  }));
  points.forEach((p, i) => {
    const region = regions[assignment[i]];
    if (!region) throw new RangeError(`assignment names cluster ${assignment[i]}, not in 0..${centers.length - 1}`);
    const ref = region.centre?.[1] ?? p.lng;
    const lng = ref + ((((p.lng - ref + 180) % 360) + 360) % 360) - 180;
    region.points.push([round5(p.lat), round5(lng)]);
  });
  for (const r of regions) {
    const hull = convexHull(r.points.map((p) => [p[1], p[0]] as const));
    r.hull = hull.map(([lng, lat]) => [lat, lng]);
  }
  return { v: 1, regions };
}
