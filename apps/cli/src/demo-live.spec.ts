import { readFileSync } from 'node:fs';
import { parseGpxFixes } from '@app/locations';
import { demoTracePath } from './demo-live';

describe('the demo trace', () => {
  it('is found from the sources and the build, and holds its 104 timed points in order (its README)', () => {
    const points = parseGpxFixes(readFileSync(demoTracePath(), 'utf8'));
    expect(points).toHaveLength(104);
    expect(points[0]).toMatchObject({ lat: 45.273518851, lng: 13.7142099626, elv: 211, ts: Date.parse('2020-12-18T06:15:50Z') });
    expect(points[103].ts).toBe(Date.parse('2020-12-18T06:24:24Z'));
    for (let i = 1; i < points.length; i++) expect(points[i].ts).toBeGreaterThan(points[i - 1].ts);
  });
});
