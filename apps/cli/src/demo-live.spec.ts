import { readFileSync } from 'node:fs';
import { demoTracePath, readGpxPoints } from './demo-live';

describe('readGpxPoints', () => {
  it('reads the demo trace: 104 timed points, in order, with elevations (its README)', () => {
    const points = readGpxPoints(readFileSync(demoTracePath(), 'utf8'));
    expect(points).toHaveLength(104);
    expect(points[0]).toEqual({ lat: 45.273518851, lng: 13.7142099626, elv: 211.15, ts: Date.parse('2020-12-18T06:15:50Z') });
    expect(points[103].ts).toBe(Date.parse('2020-12-18T06:24:24Z'));
    for (let i = 1; i < points.length; i++) expect(points[i].ts).toBeGreaterThan(points[i - 1].ts);
  });

  it('skips points without <time> and reads GPX 1.0 segments', () => {
    const xml = `<?xml version="1.0"?><gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0"><trk><trkseg>
      <trkpt lat="1.5" lon="2.5"><time>2010-08-05T12:00:00Z</time></trkpt>
      <trkpt lat="1.6" lon="2.6"></trkpt></trkseg><trkseg><trkpt lat="-1" lon="-2"><ele>3</ele><time>2010-08-05T12:00:05Z</time></trkpt></trkseg></trk></gpx>`;
    expect(readGpxPoints(xml)).toEqual([
      { lat: 1.5, lng: 2.5, elv: null, ts: Date.parse('2010-08-05T12:00:00Z') },
      { lat: -1, lng: -2, elv: 3, ts: Date.parse('2010-08-05T12:00:05Z') },
    ]);
  });
});
