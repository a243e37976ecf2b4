import type { ClusterRegion, TilesConfig } from '@share-pages/data';
import { clusterColour, readableOn } from '@app/dispatch';
import type { ClusterPreview } from '@app/dispatch';
import { escapeHtml, renderSharePage } from './share-html';

const jobs = (n: number) => `${n} job${n === 1 ? '' : 's'}`;

/**
 * The HTML page of a distributejobs preview (`/share/clusters/<token>`), drawn as the console draws
 * regions: on the map each region's hull, dots and a label with its number and job count; beside it
 * a legend (colour, "Region n", count). Region n is the answer's n-th cluster. Positions and counts
 * only: a public link names no job and no customer. A map stored before regions were kept
 * (`preview` null) shows its SVG instead.
 */
export function renderClustersPage(p: { token: string; preview: ClusterPreview | null; tiles: TilesConfig | null }): string {
  const svgHref = `${escapeHtml(p.token)}.svg`;
  if (!p.preview) {
    return renderSharePage({
      title: 'Job regions · Fieldwork',
      page: 'clusters',
      header: `<h1>Job regions</h1><nav class="share-links"><a href="${svgHref}">Map as SVG</a></nav>`,
      main: `<main class="share-fallback"><img src="${svgHref}" alt="Map of the job regions"></main>`,
    });
  }
  const { regions } = p.preview;
  const total = regions.reduce((n, r) => n + r.points.length, 0);
  const summary = `${jobs(total)} in ${regions.length} region${regions.length === 1 ? '' : 's'}`;
  const drawn: ClusterRegion[] = regions.flatMap((r, j) =>
    r.points.length
      ? [{ n: j + 1, colour: clusterColour(j), ink: readableOn(clusterColour(j)), points: r.points, centre: r.centre ?? r.points[0], hull: r.hull }]
      : [],
  );
  const legend = regions
    .map(
      (r, j) =>
        `<li data-region="${j + 1}"><svg class="swatch" viewBox="0 0 16 16" aria-hidden="true"><rect width="16" height="16" rx="3" ` +
        `fill="${escapeHtml(clusterColour(j))}" stroke="#333" stroke-width="0.6"/></svg>` +
        `<span class="region-name">Region ${j + 1}</span><span class="region-count">${jobs(r.points.length)}</span></li>`,
    )
    .join('');
  return renderSharePage({
    title: `Job regions: ${summary} · Fieldwork`,
    page: 'clusters',
    header: `<h1>Job regions</h1><p class="share-sub">${summary}</p><nav class="share-links"><a href="${svgHref}">Map as SVG</a></nav>`,
    main:
      `<main class="share-main"><div id="map" class="share-map" role="region" aria-label="${escapeHtml(`Map of ${summary}`)}"></div>` +
      `<aside class="share-legend" aria-label="Legend"><h2>Regions</h2><ol>${legend}</ol>` +
      `<p class="share-note">Positions only: this public link names no job and no customer.</p></aside></main>`,
    data: { page: 'clusters', tiles: p.tiles, regions: drawn },
  });
}
