import { Fix } from '../fix';
import { ingestParams } from './ingest-params';
import { INGEST_DEVICE_SQL, INGEST_MEMBER_SQL } from './ingest.repository';

const fix = (ts: number, lat: number, more: Partial<Fix> = {}): Fix => ({ ts, lat, lng: 14.5, acc: 5, dir: 90, spd: 1, elv: 300, bat: 80, ...more });

describe('ingestParams', () => {
  it('one array per parameter: item columns one entry per item, fix columns one entry per fix with its 1-based item; then both counts', () => {
    const t = 1_700_000_000_000;
    const params = ingestParams([
      // a device's two fixes, the newer first; the older is 3 min older: the new row's anchor
      { companyId: null, member: 'dev-a', fixes: [fix(t, 46.2), fix(t - 180_000, 46.1, { bat: null })], source: 'osmand', now: t + 5 },
      // no fix: no newest, no anchor, tracking not set
      { companyId: null, member: 'dev-b', fixes: [], source: 'osmand', now: t + 6 },
      // a phone's call (pushlocations): device details, ping delivered
      {
        companyId: 'C1',
        member: 'M1',
        fixes: [fix(t - 1000, 47, { acc: null })],
        source: 'app',
        now: t + 7,
        device: { connection_type: 2, loc_gps_on: true },
      },
    ]);
    expect(params).toHaveLength(32);
    expect(params.slice(0, 21)).toEqual([
      [null, null, 'C1'],
      ['dev-a', 'dev-b', 'M1'],
      [t + 5, t + 6, t + 7],
      [t, null, t - 1000],
      [46.2, null, 47],
      [14.5, null, 14.5],
      [5, null, null],
      [90, null, 90],
      [1, null, 1],
      [300, null, 300],
      [80, null, 80],
      ['osmand', 'osmand', 'app'],
      [t - 180_000, null, null],
      [46.1, null, null],
      [14.5, null, null],
      [true, false, false],
      [null, null, 2],
      [null, null, null],
      [null, null, true],
      [null, null, null],
      [false, false, true],
    ]);
    expect(params.slice(30)).toEqual([3, 3]);
    expect(params.slice(21, 30)).toEqual([
      [1, 1, 3],
      [t, t - 180_000, t - 1000],
      [46.2, 46.1, 47],
      [14.5, 14.5, 14.5],
      [5, 5, null],
      [90, 90, 90],
      [1, 1, 1],
      [300, 300, 300],
      [80, null, 80],
    ]);
  });

  it('refuses no items', () => {
    expect(() => ingestParams([])).toThrow('no items');
  });

  it('the member and device statements differ only in how an item finds its member, and use exactly $1…$32', () => {
    const params = (sql: string) => [...new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
    expect(params(INGEST_MEMBER_SQL)).toEqual(Array.from({ length: 32 }, (_, k) => k + 1));
    expect(params(INGEST_DEVICE_SQL)).toEqual(params(INGEST_MEMBER_SQL));
    const [memberHead, memberTail] = INGEST_MEMBER_SQL.split(/\nf AS \(/);
    const [deviceHead, deviceTail] = INGEST_DEVICE_SQL.split(/\nf AS \(/);
    expect(deviceTail).toBe(memberTail);
    expect(deviceHead).toContain('FROM member_device_ids d JOIN members mm ON mm.company_id = d.company_id AND mm.id = d.member_id');
    expect(deviceHead).toContain('WHERE d.device_id = lower(it.member)');
    expect(memberHead).not.toContain('members');
  });
});
