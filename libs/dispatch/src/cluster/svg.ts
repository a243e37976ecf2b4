import { MEAN_EARTH_RADIUS_M } from '@app/core/pure';
import type { GeoPoint } from '../types';
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
/** The smallest extent drawn, m: a single point or a street's worth of jobs still gets a readable map. */
const MIN_EXTENT_M = 500;
const DEG = Math.PI / 180;

/**
 * An SVG map of clustered points, rendered here (no outside map service, no tiles): an equirectangular
 * projection with its standard parallel at the middle of the points' bounding box (true scale along it
 * and along every meridian; J. P. Snyder, "Map Projections — A Working Manual", USGS PP 1395, 1987,
 * p. 90), longitudes unwrapped around the points' spherical mean so a group across the antimeridian is
 * drawn together. Shows the points as dots coloured by cluster (one `<g fill>` per cluster), each centre
 * as a white disc ringed in its cluster's colour with the cluster's number (1-based), and a scale bar of
 * a round length (1, 2 or 5 × 10ⁿ m, about a quarter of the map's width) labelled in m or km. The box
 * gets a margin and at least {@link MIN_EXTENT_M} of extent. Size: ~40 bytes a point.
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
  const title = `${points.length} point${points.length === 1 ? '' : 's'} in ${k} cluster${k === 1 ? '' : 's'}`;
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
  const mapW = Math.max(Math.round(widthM / mPerPx), 120);
  const mapH = Math.max(Math.round(heightM / mPerPx), 60);
  const x = (p: GeoPoint) => (MARGIN_PX + mapW / 2 + ((unwrap(p.lng) - lng0) * kx) / mPerPx).toFixed(1);
  const y = (p: GeoPoint) => (MARGIN_PX + mapH / 2 - ((p.lat - lat0) * ky) / mPerPx).toFixed(1);

  const body: string[] = [`<rect x="${MARGIN_PX}" y="${MARGIN_PX}" width="${mapW}" height="${mapH}" fill="#f7f7f4" stroke="#bbb"/>`];
  const byCluster: string[][] = Array.from({ length: k }, () => []);
  points.forEach((p, i) => byCluster[assignment[i]].push(`<circle cx="${x(p)}" cy="${y(p)}" r="3"/>`));
  byCluster.forEach((dots, j) => {
    if (dots.length)
      body.push(
        `<g class="cluster" data-cluster="${j + 1}" fill="${clusterColour(j)}" stroke="#333" stroke-width="0.4">${dots.join('')}</g>`,
      );
  });
  for (const { c, j } of centres) {
    const cx = x(c);
    const cy = y(c);
    body.push(
      `<g class="centre" data-cluster="${j + 1}"><title>${escapeXml(`cluster ${j + 1}: ${c.lat.toFixed(5)}, ${c.lng.toFixed(5)}`)}</title>` +
        `<circle cx="${cx}" cy="${cy}" r="10" fill="#fff" stroke="${clusterColour(j)}" stroke-width="4"/>` +
        `<circle cx="${cx}" cy="${cy}" r="12" fill="none" stroke="#222" stroke-width="1"/>` +
        `<text x="${cx}" y="${cy}" dy="0.35em" text-anchor="middle" font-size="10" font-weight="bold" fill="#222">${j + 1}</text></g>`,
    );
  }
  const bar = scaleBar(mapW * mPerPx);
  const barPx = (bar.metres / mPerPx).toFixed(1);
  const by = MARGIN_PX + mapH + 22;
  body.push(
    `<g class="scale" stroke="#222" stroke-width="2"><line x1="${MARGIN_PX}" y1="${by}" x2="${MARGIN_PX + Number(barPx)}" y2="${by}"/>` +
      `<line x1="${MARGIN_PX}" y1="${by - 5}" x2="${MARGIN_PX}" y2="${by + 1}"/>` +
      `<line x1="${(MARGIN_PX + Number(barPx)).toFixed(1)}" y1="${by - 5}" x2="${(MARGIN_PX + Number(barPx)).toFixed(1)}" y2="${by + 1}"/></g>` +
      `<text x="${(MARGIN_PX + Number(barPx) + 6).toFixed(1)}" y="${by + 4}" font-size="12" fill="#222">${escapeXml(bar.label)}</text>`,
  );
  return svgDocument(mapW + 2 * MARGIN_PX, mapH + 2 * MARGIN_PX + BAND_PX, title, body);
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
