/**
 * What a share page's script reads: the JSON the api embeds in the page
 * (`<script type="application/json" id="share-data">`). Types only — the api imports them
 * (`@share-pages/data`) when it writes the page, so both sides agree. Coordinates are degrees
 * (WGS84) as `[lat, lng]` pairs, Leaflet's order.
 */

/** `[lat, lng]`, degrees. */
export type LatLng = [number, number];

/** Map tiles (`CONSOLE_TILE_URL`): a `{z}/{x}/{y}` template and the credit line shown for it. */
export interface TilesConfig {
  url: string;
  /** plain text, e.g. `© OpenStreetMap contributors` */
  attribution: string;
}

/** A track share page (`/share/tracks/<token>` asked for as HTML). */
export interface TrackPageData {
  page: 'track';
  /** null: no tiles, a plain background */
  tiles: TilesConfig | null;
  /** the track's points, oldest first (one point for a track that never moved) */
  line: LatLng[];
  /** the first and last point with their local times (`08:12`), for the start and end marks */
  start: { at: LatLng; label: string };
  end: { at: LatLng; label: string };
}

/** One region of a cluster preview: its number (1-based, the answer's order), colour and points. */
export interface ClusterRegion {
  /** 1-based: the position of the cluster in distributejobs' answer */
  n: number;
  /** CSS colour, the same as the SVG's */
  colour: string;
  /** the text colour that reads on `colour` (black or white) */
  ink: string;
  /** the jobs' positions (no names) */
  points: LatLng[];
  /** the cluster's centre (the spherical mean of its jobs) */
  centre: LatLng;
  /** the convex hull of the points, vertices in order around it (fewer than 3 points: the points themselves) */
  hull: LatLng[];
}

/** A cluster preview page (`/share/clusters/<token>`). */
export interface ClustersPageData {
  page: 'clusters';
  tiles: TilesConfig | null;
  /** null: a preview stored before regions were kept (the page shows its SVG instead) */
  regions: ClusterRegion[] | null;
}

export type SharePageData = TrackPageData | ClustersPageData;
