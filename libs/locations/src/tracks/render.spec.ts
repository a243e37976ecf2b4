import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
// eslint-disable-next-line no-restricted-imports -- the real GPX traces' reader is a test helper shared with the e2e suites
import { parseGpxFixes, readGpxFixes } from '../../../../test/support/gpx';
// eslint-disable-next-line no-restricted-imports -- the real GPX traces' reader is a test helper shared with the e2e suites
import { GPX_FIXTURES_DIR } from '../../../../test/support/fixtures-dir';
import type { Fix } from '../fix';
import { GPX_CREATOR, TrackPoint, trackGeoJson, trackGpx } from './render';
import { splitRules } from './split';
import { trackStats } from './stats';
import { TrackEntry } from './track-view';

const RULES = splitRules(5);

function entryOf(fixes: Fix[], id = 7): TrackEntry {
  const s = trackStats(fixes, RULES);
  return {
    id,
    owner_uid: 'M1',
    kind: 'track_entry',
    labels: 0,
    start_ts: s.startTs,
    end_ts: s.endTs,
    start_lat: s.startLat,
    start_lng: s.startLng,
    end_lat: s.endLat,
    end_lng: s.endLng,
    distance: s.distance,
    waypoint_count: s.waypointCount,
    speed_avg: s.speedAvg,
    speed_max: s.speedMax,
    altitude_min: s.altitudeMin,
    altitude_max: s.altitudeMax,
    altitude_gain: s.altitudeGain,
    altitude_loss: s.altitudeLoss,
    short_encoded: s.shortEncoded,
    lat_min: s.latMin,
    lat_max: s.latMax,
    lng_min: s.lngMin,
    lng_max: s.lngMax,
    share_url: 'http://127.0.0.1:3000/share/tracks/abc',
  };
}
const points = (fixes: Fix[]): TrackPoint[] => fixes.map((f) => ({ lat: f.lat, lng: f.lng, ts: f.ts, elv: f.elv }));

/** xmllint's verdict on a GPX text against the GPX 1.1 schema of test/fixtures/gpx. */
function xmllint(xml: string): { status: number | null; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'gpx-'));
  try {
    const file = path.join(dir, 'track.gpx');
    writeFileSync(file, xml);
    const res = spawnSync('xmllint', ['--noout', '--schema', path.join(GPX_FIXTURES_DIR, 'gpx.xsd'), file], { encoding: 'utf8' });
    if (res.error) throw new Error(`xmllint not runnable (bash scripts/test-tools.sh installs it): ${res.error.message}`);
    return { status: res.status, output: res.stderr + res.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('trackGpx', () => {
  const fixes = readGpxFixes('around-visnjan-with-car.gpx');
  const entry = entryOf(fixes);

  it('is valid GPX 1.1 (xmllint against gpx.xsd)', () => {
    const res = xmllint(trackGpx(entry, points(fixes)));
    expect(res.output).toMatch(/validates/);
    expect(res.status).toBe(0);
  });

  it('round-trips: every point with lat, lon, ele and time, in order; namespace and creator set', () => {
    const xml = trackGpx(entry, points(fixes));
    const back = parseGpxFixes(xml);
    expect(back).toEqual(fixes);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(doc.gpx.xmlns).toBe('http://www.topografix.com/GPX/1/1');
    expect(doc.gpx.version).toBe('1.1');
    expect(doc.gpx.creator).toBe(GPX_CREATOR);
  });

  it('points without time or elevation (a pruned track drawn from its polyline), lon 180, and a one-point track stay valid', () => {
    const odd: TrackPoint[] = [
      { lat: -17, lng: 180, ts: null, elv: null },
      { lat: -17.1, lng: -179.5, ts: null, elv: null },
    ];
    const e = { ...entry, lng_min: 180, lng_max: -179.5 };
    const xml = trackGpx(e, odd);
    expect(xml).toContain('lon="-180"');
    expect(xmllint(xml).status).toBe(0);
    expect(xmllint(trackGpx(entry, points(fixes.slice(0, 1)))).status).toBe(0);
    expect(xmllint(trackGpx(entry, [])).status).toBe(0);
  });

  it('starts with the XML declaration', () => {
    expect(trackGpx(entry, points(fixes.slice(0, 2))).startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });
});

describe('trackGeoJson (RFC 7946)', () => {
  const fixes = readGpxFixes('around-visnjan-with-car.gpx');
  const entry = entryOf(fixes);

  it('a Feature with a LineString of [lng, lat, elv] positions, bbox [w, s, e, n], the entry as properties', () => {
    const g = trackGeoJson(entry, points(fixes));
    expect(g.type).toBe('Feature');
    expect(g.geometry.type).toBe('LineString');
    const coords = g.geometry.coordinates as number[][];
    expect(coords).toHaveLength(fixes.length);
    coords.forEach((c, i) => expect(c).toEqual([fixes[i].lng, fixes[i].lat, fixes[i].elv]));
    expect(g.bbox).toEqual([entry.lng_min, entry.lat_min, entry.lng_max, entry.lat_max]);
    expect(g.properties.id).toBe(7);
    expect(g.properties.distance).toBe(entry.distance);
    expect(g.properties.times).toEqual(fixes.map((f) => f.ts));
    expect(g.properties).not.toHaveProperty('short_encoded');
    expect(JSON.parse(JSON.stringify(g))).toEqual(g);
  });

  it('positions without elevation when any point lacks one; one point → a Point', () => {
    const pts = points(fixes.slice(0, 3)).map((p, i) => (i === 1 ? { ...p, elv: null } : p));
    expect((trackGeoJson(entry, pts).geometry.coordinates as number[][]).every((c) => c.length === 2)).toBe(true);
    expect(trackGeoJson(entry, pts.slice(0, 1)).geometry).toEqual({ type: 'Point', coordinates: [pts[0].lng, pts[0].lat, pts[0].elv] });
    expect(trackGeoJson(entry, pts.slice(1, 2)).geometry).toEqual({ type: 'Point', coordinates: [pts[1].lng, pts[1].lat] });
  });
});
