import L from 'leaflet';
import { createBaseMap, fitTo } from './base-map';
import type { ClusterRegion, ClustersPageData } from './data';

/** Above this many points the dots are drawn on a canvas (smooth with thousands). */
const CANVAS_ABOVE = 1000;

/**
 * Draws a cluster preview as the console draws regions: per region a translucent hull in its colour,
 * its jobs as dots, and a label at its centre with the region's number and job count. Names nothing:
 * the data holds positions only.
 */
export function drawClusters(el: HTMLElement, data: ClustersPageData & { regions: ClusterRegion[] }): L.Map {
  const total = data.regions.reduce((n, r) => n + r.points.length, 0);
  const map = createBaseMap(el, data.tiles, { preferCanvas: total > CANVAS_ABOVE });
  for (const r of data.regions) {
    if (r.hull.length >= 3) {
      L.polygon(r.hull, { color: r.colour, weight: 2, opacity: 0.9, fillColor: r.colour, fillOpacity: 0.14, interactive: false, className: 'share-region' }).addTo(map);
    } else if (r.hull.length === 2) {
      L.polyline(r.hull, { color: r.colour, weight: 2, opacity: 0.9, interactive: false }).addTo(map);
    }
  }
  for (const r of data.regions) {
    for (const p of r.points) {
      L.circleMarker(p, { radius: 5, color: '#fff', weight: 1.5, fillColor: r.colour, fillOpacity: 1, interactive: false }).addTo(map);
    }
  }
  for (const r of data.regions) {
    L.marker(r.centre, { icon: regionIcon(r), keyboard: false, interactive: false, zIndexOffset: 1000 }).addTo(map);
  }
  fitTo(
    map,
    data.regions.flatMap((r) => r.points),
  );
  return map;
}

/** The centre label: the region's number in a disc of its colour, the job count beside it. */
function regionIcon(r: ClusterRegion): L.DivIcon {
  const root = document.createElement('div');
  root.className = 'region-label';
  root.dataset.region = String(r.n);
  const no = document.createElement('span');
  no.className = 'region-label__no';
  no.textContent = String(r.n);
  // CSSOM, not a style attribute: the page's CSP allows no inline styles
  no.style.backgroundColor = r.colour;
  no.style.color = r.ink;
  const count = document.createElement('span');
  count.className = 'region-label__count';
  count.textContent = `${r.points.length} job${r.points.length === 1 ? '' : 's'}`;
  root.append(no, count);
  return L.divIcon({ html: root, className: 'region-label-icon', iconSize: undefined });
}
