import L from 'leaflet';
import type { LatLng, TilesConfig } from './data';

/**
 * A Leaflet map in `el`: tiles from the configured template, else none — the container's plain
 * background (share.css) with everything still drawn; a metric and imperial scale bar either way, so
 * a map without tiles is still read at its true size. No request leaves our origin without tiles.
 */
export function createBaseMap(el: HTMLElement, tiles: TilesConfig | null, opts: { preferCanvas?: boolean } = {}): L.Map {
  const map = L.map(el, {
    preferCanvas: opts.preferCanvas ?? false,
    zoomSnap: 0.25,
    // the keyboard moves the map once it has focus (Leaflet's own handler); the page's own
    // tab order: the header's links, then the map
    keyboard: true,
    attributionControl: true,
  });
  map.attributionControl.setPrefix('Leaflet');
  if (tiles) {
    L.tileLayer(tiles.url, { maxZoom: 19, attribution: escapeText(tiles.attribution), crossOrigin: false }).addTo(map);
  } else {
    el.classList.add('share-map--plain');
  }
  L.control.scale({ metric: true, imperial: true, position: 'bottomleft' }).addTo(map);
  return map;
}

/**
 * Fits the map to `points` with a margin wide enough for the labels beside them; a single point (or a
 * tiny box) gets a street-level view.
 */
export function fitTo(map: L.Map, points: LatLng[]): void {
  if (points.length === 0) {
    map.setView([0, 0], 2);
    return;
  }
  const bounds = L.latLngBounds(points);
  if (bounds.getNorthEast().distanceTo(bounds.getSouthWest()) < 50) map.setView(bounds.getCenter(), 17);
  // room at the sides for the labels beside the first and last points (`Start 08:12`, `12 jobs`)
  else map.fitBounds(bounds, { padding: [110, 40], maxZoom: 18 });
}

/** Text made safe for Leaflet's attribution (which it writes as HTML). */
function escapeText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
