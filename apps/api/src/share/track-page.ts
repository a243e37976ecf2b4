import type { LatLng, TilesConfig } from '@share-pages/data';
import type { TrackEntry, TrackPoint } from '@app/locations';
import { escapeHtml, renderSharePage } from './share-html';

/** What a track's page shows: the track, and who and where as the share allows. */
export interface TrackPageInput {
  /** the share link's token: the page's own links (`<token>.gpx`, `.geojson`) are relative to it */
  token: string;
  entry: TrackEntry;
  points: readonly TrackPoint[];
  /** the member's display name; null when unknown */
  memberName: string | null;
  /** IANA zone the day and times are shown in (the company's) */
  timezone: string;
  /** the member's `unit_distance` */
  units: 'SI' | 'US';
  tiles: TilesConfig | null;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

function dayText(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone }).format(ms);
}

function timeText(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(ms);
}

/** `1 h 28 min`, `12 min`, `40 s`. */
export function durationText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** `850 m`, `12.4 km`; US: `0.5 mi`, `7.7 mi`. */
export function distanceText(m: number, units: 'SI' | 'US'): string {
  if (units === 'US') return `${(m / 1609.344).toFixed(1)} mi`;
  return m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(1)} km`;
}

/** m/s as `8.5 km/h` or `5.3 mph`. */
export function speedText(mps: number, units: 'SI' | 'US'): string {
  return units === 'US' ? `${(mps * 2.236936).toFixed(1)} mph` : `${(mps * 3.6).toFixed(1)} km/h`;
}

/**
 * The HTML page of a shared track: the member's name and the day (in the company's time zone), the
 * times, distance, duration and speeds in the member's units, links to the GPX and GeoJSON, and the
 * map the script draws from the embedded line (start and end marked).
 */
export function renderTrackPage(p: TrackPageInput): string {
  const { entry, timezone: tz } = p;
  const start = timeText(entry.start_ts, tz);
  const end = timeText(entry.end_ts, tz);
  const day = dayText(entry.start_ts, tz);
  const nextDay = dayText(entry.end_ts, tz) !== day ? ' (next day)' : '';
  const who = p.memberName?.trim() || 'Shared track';
  const figures: Array<[string, string]> = [
    ['Distance', distanceText(entry.distance, p.units)],
    ['Duration', durationText(entry.end_ts - entry.start_ts)],
    ['Average speed', speedText(entry.speed_avg, p.units)],
    ['Top speed', speedText(entry.speed_max, p.units)],
  ];
  const line: LatLng[] = p.points.map((q) => [round6(q.lat), round6(q.lng)]);
  const header =
    `<h1>${escapeHtml(who)}</h1>` +
    `<p class="share-sub"><time datetime="${new Date(entry.start_ts).toISOString()}">${escapeHtml(day)}</time> · ${start}–${end}${nextDay} ` +
    `<span class="share-tz">(${escapeHtml(tz)})</span></p>` +
    `<dl class="share-figures">${figures.map(([k, v]) => `<div><dt>${k}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>` +
    `<nav class="share-links" aria-label="Downloads"><a href="${escapeHtml(p.token)}.gpx">Download GPX</a>` +
    `<a href="${escapeHtml(p.token)}.geojson" type="application/geo+json">GeoJSON</a></nav>`;
  const main =
    `<main class="share-main"><div id="map" class="share-map" role="region" aria-label="${escapeHtml(`Map of the track, ${start} to ${end}`)}"></div>` +
    `<noscript><p class="share-fallback">The map needs JavaScript; the GPX and GeoJSON links above hold the track.</p></noscript></main>`;
  return renderSharePage({
    title: `${who} — ${day} · Fieldwork`,
    page: 'track',
    header,
    main,
    data: {
      page: 'track',
      tiles: p.tiles,
      line,
      start: { at: line[0] ?? [entry.start_lat, entry.start_lng], label: start },
      end: { at: line.at(-1) ?? [entry.end_lat, entry.end_lng], label: end },
    },
  });
}
