import L from 'leaflet';
import { createBaseMap, fitTo } from './base-map';
import type { TrackPageData } from './data';

/** Track line colour and the start (green) and end (red) marks. */
const LINE = '#1f5fbf';
const START = '#1a9850';
const END = '#d73027';

/**
 * Draws a shared track: the line (an SVG path with the class `share-track`, which the browser test
 * finds), the start and end marked and labelled with their local times, the view fitted to it.
 */
export function drawTrack(el: HTMLElement, data: TrackPageData): L.Map {
  const map = createBaseMap(el, data.tiles);
  if (data.line.length >= 2) {
    // a white casing under the line keeps it readable on any tile
    L.polyline(data.line, { color: '#fff', weight: 7, opacity: 0.9, interactive: false }).addTo(map);
    L.polyline(data.line, { color: LINE, weight: 4, opacity: 1, className: 'share-track', interactive: false }).addTo(map);
  }
  mark(map, data.start.at, START, `Start ${data.start.label}`, 'share-start', 'left');
  mark(map, data.end.at, END, `End ${data.end.label}`, 'share-end', 'right');
  fitTo(map, data.line.length ? data.line : [data.start.at]);
  return map;
}

function mark(map: L.Map, at: [number, number], colour: string, label: string, className: string, direction: 'left' | 'right'): void {
  L.circleMarker(at, { radius: 8, color: '#fff', weight: 3, fillColor: colour, fillOpacity: 1, className })
    .bindTooltip(label, { permanent: true, direction, offset: [direction === 'left' ? -10 : 10, 0], className: 'share-mark-label' })
    .addTo(map);
}
