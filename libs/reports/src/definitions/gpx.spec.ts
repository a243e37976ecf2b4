import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { parseGpxFixes } from '@app/locations/pure';
// eslint-disable-next-line no-restricted-imports -- the real GPX traces' reader is a test helper shared with the e2e suites
import { readGpxFixes } from '../../../../test/support/gpx';
// eslint-disable-next-line no-restricted-imports -- the shared data directory is a test helper
import { GPX_FIXTURES_DIR } from '../../../../test/support/fixtures-dir';
import type { ReportContext, ReportFile, ReportMember } from '../report-definition';
import { dayGpx, fileStem, GPX_REPORT, GpxFileNames } from './gpx';
import { fakeFixDb } from './spec-helpers';

const GAP = 10 * 60_000;

function xmllint(xml: string): number | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'gpx-'));
  try {
    const file = path.join(dir, 'd.gpx');
    writeFileSync(file, xml);
    const res = spawnSync('xmllint', ['--noout', '--schema', path.join(GPX_FIXTURES_DIR, 'gpx.xsd'), file], { encoding: 'utf8' });
    if (res.error) throw new Error(`xmllint not runnable: ${res.error.message}`);
    return res.status;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('file names', () => {
  it('sanitised username (else name), accents dropped, unique within the zip', () => {
    expect(fileStem('ana.novak@example.test')).toBe('ana.novak_example.test');
    expect(fileStem('Žiga Čuk / ../x')).toBe('Ziga_Cuk_.._x');
    expect(fileStem('../..')).toBe('member');
    const names = new GpxFileNames();
    expect(names.next({ username: 'a b', name: 'A' }, 20261123)).toBe('a_b_20261123.gpx');
    expect(names.next({ username: 'a?b', name: 'B' }, 20261123)).toBe('a_b_20261123-2.gpx');
    expect(names.next({ username: '', name: 'Cé' }, 20261124)).toBe('Ce_20261124.gpx');
  });
});

describe('dayGpx', () => {
  it('cerknicko-jezero as one day: valid GPX 1.1, every fix back in order, one trkseg per recording (gaps ≥ 10 min)', () => {
    const fixes = readGpxFixes('cerknicko-jezero.gpx').sort((a, b) => a.ts - b.ts);
    const gaps = fixes.filter((f, i) => i > 0 && f.ts - fixes[i - 1].ts >= GAP).length;
    expect(gaps).toBeGreaterThan(0);
    const { xml, segments } = dayGpx('Ana <&> Novak', 20100805, fixes, GAP);
    expect(segments).toBe(gaps + 1);
    expect(xmllint(xml)).toBe(0);
    expect(parseGpxFixes(xml)).toEqual(fixes.map((f) => ({ ...f, acc: null, dir: null, spd: null, bat: null })));
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'trkseg' }).parse(xml);
    expect(doc.gpx.trk.trkseg).toHaveLength(gaps + 1);
    expect(doc.gpx.metadata.name).toBe('Ana <&> Novak 2010-08-05');
    expect(doc.gpx.metadata.time).toBe(new Date(fixes[0].ts).toISOString());
  });

  it('one fix: one segment, valid', () => {
    const [f] = readGpxFixes('around-visnjan-with-car.gpx');
    const { xml, segments } = dayGpx('A', 20201218, [f], GAP);
    expect(segments).toBe(1);
    expect(xmllint(xml)).toBe(0);
  });
});

describe('GPX_REPORT', () => {
  const member: ReportMember = { id: 'M1', name: 'Ana', username: 'ana@example.test', timezone: 'Europe/Ljubljana' };
  const other: ReportMember = { id: 'M2', name: 'Bo', username: 'bo@example.test', timezone: 'America/New_York' };
  // visnjan's drive moved to 23:55 Ljubljana time on 2026-11-23, so it crosses into the 24th
  const trace = readGpxFixes('around-visnjan-with-car.gpx').sort((a, b) => a.ts - b.ts);
  const shift = Date.UTC(2026, 10, 23, 22, 55) - trace[0].ts;
  const fixes = trace.map((f) => ({ ...f, ts: f.ts + shift }));
  const ctx = (): ReportContext => ({
    db: fakeFixDb({ M1: fixes, M2: fixes }),
    companyId: 'C',
    company: { name: 'Co', timezone: 'UTC' },
    requester: { id: 'M1', name: 'Ana' },
    locale: { timezone: 'UTC', unitTime: '24', unitDate: 'YYYY-MM-DD', unitDistance: 'SI' },
    members: [member, other],
    places: [],
    range: { from: 20261123, until: 20261124, fromMs: Date.UTC(2026, 10, 23), untilMs: Date.UTC(2026, 10, 25) },
  });

  it('files: one per member and local day with fixes, holding exactly that day’s fixes; rows describe them', async () => {
    const files: ReportFile[] = [];
    for await (const f of GPX_REPORT.files!(ctx())) files.push(f);
    const split = Date.UTC(2026, 10, 23, 23); // Ljubljana midnight
    const first = fixes.filter((f) => f.ts < split);
    const second = fixes.filter((f) => f.ts >= split);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    // New York: all on the 23rd
    expect(files.map((f) => f.name)).toEqual([
      'ana_example.test_20261123.gpx',
      'ana_example.test_20261124.gpx',
      'bo_example.test_20261123.gpx',
    ]);
    const back = files.map((f) => parseGpxFixes(String(f.content)).map((x) => x.ts));
    expect(back).toEqual([first.map((f) => f.ts), second.map((f) => f.ts), fixes.map((f) => f.ts)]);
    for (const f of files) expect(xmllint(String(f.content))).toBe(0);

    const rows = [];
    for await (const r of GPX_REPORT.rows(ctx())) rows.push(r.values);
    expect(rows).toEqual([
      {
        member: 'Ana',
        date: 20261123,
        file: files[0].name,
        fixes: first.length,
        segments: 1,
        first: first[0].ts,
        last: first[first.length - 1].ts,
      },
      {
        member: 'Ana',
        date: 20261124,
        file: files[1].name,
        fixes: second.length,
        segments: 1,
        first: second[0].ts,
        last: second[second.length - 1].ts,
      },
      {
        member: 'Bo',
        date: 20261123,
        file: files[2].name,
        fixes: fixes.length,
        segments: 1,
        first: fixes[0].ts,
        last: fixes[fixes.length - 1].ts,
      },
    ]);
  });
});
