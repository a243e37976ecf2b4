/** A GeoJSON Polygon (RFC 7946 §3.1.6): rings of `[lng, lat]` degrees, the exterior first, each closed. */
export interface GeoJsonPolygon {
  type: 'Polygon';
  coordinates: number[][][];
}

/**
 * A zone as every zone action answers it (CONTRACTS.md "Alerts and zones"; docs/zones.md). The
 * OpenAPI answer schemas are generated from this type, so a field added to the view belongs here.
 */
export interface ZoneView {
  /** ULID */
  id: string;
  name: string;
  /**
   * The area as stored: the exterior ring counter-clockwise and holes clockwise (RFC 7946's winding,
   * whatever winding was sent), coordinates as sent (shortest round-trip decimals).
   */
  polygon: GeoJsonPolygon;
  /** a danger zone (`enters_danger_zone` alerts) */
  danger: boolean;
  /** team ids, ascending */
  teams: number[];
  /** `#RRGGBB` or "" */
  color: string;
  /** ms, creation */
  tsCreated: number;
  /** ms, the last write (creation when never edited) */
  tsSaved: number;
}

/** A row of `ZonesRepository`'s view query (`polygon` already GeoJSON, bigint as float8). */
export interface ZoneRow {
  id: string;
  name: string;
  polygon: GeoJsonPolygon;
  danger: boolean;
  teams: number[];
  color: string;
  createdAt: number;
  updatedAt: number | null;
}

/** The wire form of a zone. */
export function toZoneView(r: ZoneRow): ZoneView {
  return {
    id: r.id,
    name: r.name,
    polygon: { type: 'Polygon', coordinates: r.polygon.coordinates },
    danger: r.danger,
    teams: [...(r.teams ?? [])],
    color: r.color,
    tsCreated: r.createdAt,
    tsSaved: r.updatedAt ?? r.createdAt,
  };
}

/** A zone as other domains name it (an alert firing's `zone {id, name}`). */
export interface ZoneRef {
  id: string;
  name: string;
  danger: boolean;
  /** ms of its soft delete; null while live */
  deletedAt: number | null;
}

/** The zones covering one point (`ZonesService.zonesAt`). */
export interface ZonesAtPoint {
  /** ids of the live zones covering the point (boundary included), ascending (= creation order, ULIDs) */
  zoneIds: string[];
  /** the union of those zones' teams, ascending */
  teams: number[];
}
