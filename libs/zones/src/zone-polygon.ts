/**
 * The shape rules of a zone's polygon that need no database (docs/zones.md "Polygon rules"). What
 * only PostGIS can judge — self-intersections, holes outside the shell, the geodesic area — is
 * checked after these by `ZonesRepository.inspectPolygon`.
 */

/** Positions a polygon may have, over all its rings (each ring's closing repeat counted). */
export const MAX_ZONE_POSITIONS = 10_000;
/** The largest area of a zone, km² (CONTRACTS.md "Alerts and zones"), by `ST_Area(geography)`. */
export const MAX_ZONE_AREA_KM2 = 10_000;

/** A rule a polygon broke: `path` is below the polygon field (`''` = the polygon itself, `.coordinates[0]`…). */
export interface PolygonIssue {
  path: string;
  rule: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCoordinate = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Checks the GeoJSON form of a zone's polygon (RFC 7946 §3.1.6), rule by rule, stopping at the
 * first broken one:
 * 1. an object with exactly the keys `type` and `coordinates`;
 * 2. `type` is `"Polygon"`;
 * 3. `coordinates` is a non-empty array of linear rings (the exterior first, then holes);
 * 4. at most {@link MAX_ZONE_POSITIONS} positions in all;
 * 5. each ring an array of at least 4 positions;
 * 6. each position `[lng, lat]`: exactly two finite numbers (no altitude), lng in [-180, 180], lat
 *    in [-90, 90] (degrees, WGS84);
 * 7. consecutive positions less than 180° apart in longitude (an edge never crosses the
 *    antimeridian: PostGIS's planar validity check and the geodesic edges would disagree there);
 * 8. each ring closed: its last position equal to its first.
 * Either winding is accepted (the repository stores the exterior counter-clockwise, holes clockwise).
 * @returns the first issue, or null when the shape passes (then the value is a GeoJSON Polygon)
 */
export function polygonShapeIssue(value: unknown): PolygonIssue | null {
  if (!isRecord(value)) return { path: '', rule: 'must be a GeoJSON Polygon {"type": "Polygon", "coordinates": [[[lng, lat], …]]}' };
  const unknown = Object.keys(value).find((k) => k !== 'type' && k !== 'coordinates');
  if (unknown !== undefined) return { path: `.${unknown}`, rule: 'unknown field' };
  if (value.type !== 'Polygon') return { path: '.type', rule: 'must be "Polygon"' };
  const rings = value.coordinates;
  if (!Array.isArray(rings) || rings.length === 0)
    return { path: '.coordinates', rule: 'must be a non-empty array of linear rings (the exterior first, then holes)' };
  let positions = 0;
  for (const ring of rings) positions += Array.isArray(ring) ? ring.length : 0;
  if (positions > MAX_ZONE_POSITIONS)
    return { path: '.coordinates', rule: `may have at most ${MAX_ZONE_POSITIONS} positions in all (has ${positions})` };
  for (let r = 0; r < rings.length; r++) {
    const issue = ringIssue(rings[r] as unknown);
    if (issue) return { path: `.coordinates[${r}]${issue.path}`, rule: issue.rule };
  }
  return null;
}

/** The rules of one linear ring (5–8 of {@link polygonShapeIssue}); `path` below the ring. */
function ringIssue(ring: unknown): PolygonIssue | null {
  if (!Array.isArray(ring)) return { path: '', rule: 'must be a linear ring: an array of positions [lng, lat]' };
  if (ring.length < 4)
    return { path: '', rule: `a linear ring needs at least 4 positions, the first repeated as the last (has ${ring.length})` };
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i] as unknown;
    if (!Array.isArray(p) || p.length !== 2 || !isCoordinate(p[0]) || !isCoordinate(p[1]))
      return { path: `[${i}]`, rule: 'must be a position [lng, lat] of two finite numbers' };
    if (p[0] < -180 || p[0] > 180) return { path: `[${i}][0]`, rule: 'lng must be in [-180, 180]' };
    if (p[1] < -90 || p[1] > 90) return { path: `[${i}][1]`, rule: 'lat must be in [-90, 90]' };
    if (i > 0 && Math.abs(p[0] - (ring[i - 1] as number[])[0]) >= 180)
      return { path: `[${i}]`, rule: 'an edge may not span 180° of longitude or more (zones may not cross the antimeridian)' };
  }
  const first = ring[0] as number[];
  const last = ring[ring.length - 1] as number[];
  if (first[0] !== last[0] || first[1] !== last[1])
    return { path: '', rule: 'the ring must be closed: its last position equal to its first' };
  return null;
}

/** What PostGIS says about a polygon that passed {@link polygonShapeIssue}. */
export interface PolygonInspection {
  /** `ST_IsValid` of the geometry */
  valid: boolean;
  /** `ST_IsValidReason`: "Valid Geometry", or the reason and where (`Self-intersection[0.5 0.5]`) */
  reason: string;
  /** `ST_Area` of the geography, m²; null when not valid (not computed) */
  areaM2: number | null;
}

/**
 * The database's rules, in order: valid per `ST_IsValid` (its reason in the message), then the area
 * at most {@link MAX_ZONE_AREA_KM2} km².
 * @returns the issue (path `''`: the polygon), or null when both hold
 */
export function polygonInspectionIssue(inspection: PolygonInspection): PolygonIssue | null {
  if (!inspection.valid) return { path: '', rule: `must be a valid polygon; PostGIS says: ${inspection.reason}` };
  const km2 = (inspection.areaM2 ?? 0) / 1e6;
  if (km2 > MAX_ZONE_AREA_KM2) return { path: '', rule: `must cover at most ${MAX_ZONE_AREA_KM2} km² (covers ${Math.round(km2)} km²)` };
  return null;
}
