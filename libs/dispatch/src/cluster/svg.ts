import { MEAN_EARTH_RADIUS_M } from '@app/core/pure';
import type { GeoPoint } from '../types';
import { convexHull } from './hull';
import { sphericalMean } from './sphere';

/** What {@link renderClusterSvg} draws: the points, each point's cluster index, the cluster centres. */
export interface ClusterSvgInput {
  points: readonly GeoPoint[];
  assignment: readonly number[];
  centers: readonly GeoPoint[];
}

/**
 * Colours of clusters 1..20: Sasha Trubetskoy's "List of 20 Simple, Distinct Colors" (2017), in his
 * order (most distinct first). Clusters past 20 take golden-angle hues (137.5° apart) at alternating
 * lightness: still distinct strings, less distinct to the eye — the centre's number tells them apart.
 */
export const CLUSTER_PALETTE: readonly string[] = [
  '#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45', '#fabed4',
  '#469990', '#dcbeff', '#9a6324', '#fffac8', '#800000', '#aaffc3', '#808000', '#ffd8b1', '#000075', '#a9a9a9',
]; // prettier-ignore

/** The colour of cluster j (0-based). */
export function clusterColour(j: number): string {
  if (j < CLUSTER_PALETTE.length) return CLUSTER_PALETTE[j];
  const i = j - CLUSTER_PALETTE.length;
  return `hsl(${((i * 137.508) % 360).toFixed(1)},70%,${i % 2 ? 35 : 55}%)`;
}

/** Longest side of the map area, px. */
const MAP_PX = 800;
const MARGIN_PX = 24;
/** Height of the band under the map holding the scale bar, px. */
const BAND_PX = 36;
/** One legend entry's width and row height, px. */
const LEGEND_ITEM_PX = 150;
const LEGEND_ROW_PX = 22;
/** The smallest extent drawn, m: a single point or a street's worth of jobs still gets a readable map. */
const MIN_EXTENT_M = 500;
const DEG = Math.PI / 180;

/** `1 job`, `20 jobs`. */
const jobs = (n: number) => `${n} job${n === 1 ? '' : 's'}`;

/**
 * Black or white, whichever reads better on a `#rrggbb` colour (WCAG 2 relative luminance); white for
 * any other colour string.
 */
export function readableOn(colour: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!m) return '#fff';
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = m.slice(1).map((h) => lin(parseInt(h, 16) / 255));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.35 ? '#111' : '#fff';
}

/**
 * An SVG map of clustered points (the jobs of distributejobs' regions), rendered here (no outside map
 * service, no tiles): an equirectangular projection with its standard parallel at the middle of the
 * points' bounding box (true scale along it and along every meridian; J. P. Snyder, "Map Projections
 * — A Working Manual", USGS PP 1395, 1987, p. 90), longitudes unwrapped around the points' spherical
 * mean so a group across the antimeridian is drawn together. Drawn as the console draws regions:
 * each region's convex hull, translucent in its colour; its jobs as dots of that colour (one
 * `<g class="cluster" fill>` per region); at its centre a disc of its colour with its number
 * (1-based, the answer's order) and its job count beside it; under the map a legend (a swatch,
 * "Region n", the count) and a scale bar of a round length (1, 2 or 5 × 10ⁿ m, about a quarter of
 * the map's width) in m or km. Positions only: no job or customer is named. The box gets a margin and
 * at least {@link MIN_EXTENT_M} of extent. Size: ~60 bytes a point.
 *
 * @throws RangeError when `assignment` does not match `points` or names a cluster with no centre.
 */
export function renderClusterSvg(input: ClusterSvgInput): string {
  const { points, assignment, centers } = input;
  if (assignment.length !== points.length) throw new RangeError(`assignment has ${assignment.length} entries for ${points.length} points`);
  for (const a of assignment)
    if (!Number.isInteger(a) || a < 0 || a >= centers.length)
      throw new RangeError(`assignment names cluster ${a}, not in 0..${centers.length - 1}`);
  const centres = centers.map((c, j) => ({ c, j })).filter(({ c }) => Number.isFinite(c.lat) && Number.isFinite(c.lng));
  const all = [...points, ...centres.map(({ c }) => c)];
  const k = centers.length;
  const title = `${jobs(points.length)} in ${k} region${k === 1 ? '' : 's'}`;
  if (all.length === 0) {
    const w = 2 * MARGIN_PX + 200;
    return svgDocument(w, 2 * MARGIN_PX + BAND_PX, title, [`<text x="${MARGIN_PX}" y="${MARGIN_PX + 12}" font-size="12">no points</text>`]);
  }

  // local metres east/north of the reference, on the mean sphere
  const ref = sphericalMean(all);
  const unwrap = (lng: number) => ref.lng + ((((lng - ref.lng + 180) % 360) + 360) % 360) - 180;
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLng = Infinity;
  let maxLng = -Infinity;
  for (const p of all) {
    const lng = unwrap(p.lng);
    minLat = Math.min(minLat, p.lat);
    maxLat = Math.max(maxLat, p.lat);
    minLng = Math.min(minLng, lng);
    maxLng = Math.max(maxLng, lng);
  }
  const lat0 = (minLat + maxLat) / 2;
  const lng0 = (minLng + maxLng) / 2;
  const kx = MEAN_EARTH_RADIUS_M * DEG * Math.max(Math.cos(lat0 * DEG), 0.01); // m per degree of longitude
  const ky = MEAN_EARTH_RADIUS_M * DEG; // m per degree of latitude
  const widthM = Math.max((maxLng - minLng) * kx * 1.06, MIN_EXTENT_M);
  const heightM = Math.max((maxLat - minLat) * ky * 1.06, MIN_EXTENT_M);
  const mPerPx = Math.max(widthM, heightM) / MAP_PX;
  const mapW = Math.max(Math.round(widthM / mPerPx), 320);
  const mapH = Math.max(Math.round(heightM / mPerPx), 120);
  const px = (p: GeoPoint): [number, number] => [
    Math.round((MARGIN_PX + mapW / 2 + ((unwrap(p.lng) - lng0) * kx) / mPerPx) * 10) / 10,
    Math.round((MARGIN_PX + mapH / 2 - ((p.lat - lat0) * ky) / mPerPx) * 10) / 10,
  ];

  const body: string[] = [`<rect x="${MARGIN_PX}" y="${MARGIN_PX}" width="${mapW}" height="${mapH}" fill="#eef0ea" stroke="#bbb"/>`];
  const byCluster: Array<Array<[number, number]>> = Array.from({ length: k }, () => []);
  points.forEach((p, i) => byCluster[assignment[i]].push(px(p)));
  byCluster.forEach((pts, j) => {
    const hull = convexHull(pts);
    if (hull.length >= 2)
      body.push(
        `<polygon class="region" data-cluster="${j + 1}" points="${hull.map(([x, y]) => `${x},${y}`).join(' ')}" fill="${clusterColour(j)}" ` +
          `fill-opacity="0.14" stroke="${clusterColour(j)}" stroke-width="2" stroke-linejoin="round"/>`,
      );
  });
  byCluster.forEach((pts, j) => {
    if (pts.length)
      body.push(
        `<g class="cluster" data-cluster="${j + 1}" fill="${clusterColour(j)}" stroke="#fff" stroke-width="1.2">` +
          `${pts.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="4.5"/>`).join('')}</g>`,
      );
  });
  for (const { c, j } of centres) {
    const [cx, cy] = px(c);
    const colour = clusterColour(j);
    body.push(
      `<g class="centre" data-cluster="${j + 1}"><title>${escapeXml(`region ${j + 1}: ${jobs(byCluster[j].length)}, centre ${c.lat.toFixed(5)}, ${c.lng.toFixed(5)}`)}</title>` +
        `<circle cx="${cx}" cy="${cy}" r="13" fill="${colour}" stroke="#fff" stroke-width="2.5"/>` +
        `<circle cx="${cx}" cy="${cy}" r="14.5" fill="none" stroke="#333" stroke-width="0.8"/>` +
        `<text x="${cx}" y="${cy}" dy="0.35em" text-anchor="middle" font-size="13" font-weight="bold" fill="${readableOn(colour)}">${j + 1}</text>` +
        `<text x="${(cx + 19).toFixed(1)}" y="${cy}" dy="0.35em" font-size="12" font-weight="bold" fill="#1d2430" stroke="#fff" stroke-width="3" ` +
        `paint-order="stroke">${jobs(byCluster[j].length)}</text></g>`,
    );
  }
  const bar = scaleBar(mapW * mPerPx);
  const barPx = bar.metres / mPerPx;
  const by = MARGIN_PX + mapH + 22;
  const barEnd = (MARGIN_PX + barPx).toFixed(1);
  body.push(
    `<g class="scale" stroke="#222" stroke-width="2"><line x1="${MARGIN_PX}" y1="${by}" x2="${barEnd}" y2="${by}"/>` +
      `<line x1="${MARGIN_PX}" y1="${by - 5}" x2="${MARGIN_PX}" y2="${by + 1}"/>` +
      `<line x1="${barEnd}" y1="${by - 5}" x2="${barEnd}" y2="${by + 1}"/></g>` +
      `<text x="${(MARGIN_PX + barPx + 6).toFixed(1)}" y="${by + 4}" font-size="12" fill="#222">${escapeXml(bar.label)}</text>`,
  );
  // the legend: a row of regions (as many as fit the map's width), then the next row
  const perRow = Math.max(1, Math.floor(mapW / LEGEND_ITEM_PX));
  const legendTop = MARGIN_PX + mapH + BAND_PX;
  const legend = byCluster.map((pts, j) => {
    const lx = MARGIN_PX + (j % perRow) * LEGEND_ITEM_PX;
    const ly = legendTop + Math.floor(j / perRow) * LEGEND_ROW_PX;
    return (
      `<g class="legend-entry" data-cluster="${j + 1}"><rect x="${lx}" y="${ly}" width="14" height="14" rx="3" fill="${clusterColour(j)}" stroke="#333" stroke-width="0.6"/>` +
      `<text x="${lx + 20}" y="${ly + 11.5}" font-size="12" fill="#1d2430">Region ${j + 1} · ${jobs(pts.length)}</text></g>`
    );
  });
  body.push(`<g class="legend">${legend.join('')}</g>`);
  const legendH = Math.ceil(k / perRow) * LEGEND_ROW_PX;
  return svgDocument(mapW + 2 * MARGIN_PX, mapH + 2 * MARGIN_PX + BAND_PX + legendH, title, body);
}

function svgDocument(width: number, height: number, title: string, body: string[]): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">` +
    `<title>${escapeXml(title)}</title><rect width="100%" height="100%" fill="#fff"/>${body.join('')}</svg>\n`
  );
}

/**
 * The scale bar for a map `widthM` wide (m): the largest 1, 2 or 5 × 10ⁿ m not over a quarter of the
 * width (at least 1 m), labelled in m below 1 km ("500 m"), else in km ("2 km").
 */
export function scaleBar(widthM: number): { metres: number; label: string } {
  const target = Math.max(widthM / 4, 1);
  const pow = 10 ** Math.floor(Math.log10(target));
  const step = [5, 2, 1].find((s) => s * pow <= target) ?? 1;
  const metres = step * pow;
  return { metres, label: metres >= 1000 ? `${metres / 1000} km` : `${metres} m` };
}

/** Text made safe for XML content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
