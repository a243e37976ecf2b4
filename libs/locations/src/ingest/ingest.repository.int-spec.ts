import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import type { Fix } from '../fix';
import { IngestRepository } from './ingest.repository';
import { monthStart, partitionName } from './partitions';

const fix = (ts: number, lat: number, more: Partial<Fix> = {}): Fix => ({ ts, lat, lng: 14.5, acc: 5, dir: 90, spd: 1, elv: 300, bat: 80, ...more });

describe('IngestRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: IngestRepository;
  let a: string;
  let b: string;
  const T = Date.now() - 3_600_000;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new IngestRepository(ds);
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
    // the partition guard makes the months of the fixes before any statement: here, this month's and last month's
    await repo.ensurePartitions([monthStart(T), monthStart(monthStart(T) - 1)]);
  });
  afterAll(() => ds.destroy());

  const fixesOf = async (companyId: string, memberId: string) =>
    (
      await ds.query(`SELECT ts::float8 AS ts, lat, received_at::float8 AS received FROM location_fixes WHERE company_id = $1 AND member_id = $2 ORDER BY ts`, [
        companyId,
        memberId,
      ])
    ).map((r: { ts: number; lat: number; received: number }) => r);
  const rowOf = async (companyId: string, memberId: string) =>
    (
      await ds.query(
        `SELECT ts::float8 AS ts, lat, anchor_ts::float8 AS anchor_ts, source, tracking_status, tracking_ts::float8 AS tracking_ts,
                android_id, ping_requested_at::float8 AS ping, signal_ts::float8 AS signal_ts, late_fix_count::int AS late
           FROM member_locations WHERE company_id = $1 AND member_id = $2`,
        [companyId, memberId],
      )
    )[0];

  it('ensures a month partition by name, idempotently', async () => {
    const month = monthStart(T);
    expect(await repo.ensurePartitions([month, month])).toEqual([partitionName(month), partitionName(month)]);
  });

  it("ingests members' items in one statement: fixes, latest with anchor, duplicates, late fixes, pings — per company and member", async () => {
    const m = await createIntMember(ds, a);
    const other = await createIntMember(ds, b);
    const [row] = await repo.ingestMembers([
      { companyId: a, member: m, fixes: [fix(T, 46.2), fix(T - 180_000, 46.1)], source: 'app', now: T + 5, device: { android_id: 'x1' } },
    ]);
    expect(row).toEqual({ company_id: a, member_id: m, n: 2, lo: T - 180_000, hi: T, ping: false });
    expect(await rowOf(a, m)).toMatchObject({ ts: T, lat: 46.2, anchor_ts: T - 180_000, source: 'app', android_id: 'x1', late: 0 });

    // a repeat stores nothing; a late fix is stored (the latest stays) and counted; a pending ping is delivered
    await ds.query(`UPDATE member_locations SET ping_requested_at = $3 WHERE company_id = $1 AND member_id = $2`, [a, m, T]);
    const [again] = await repo.ingestMembers([{ companyId: a, member: m, fixes: [fix(T, 46.2)], source: 'app', now: T + 6 }]);
    expect(again).toMatchObject({ n: 0, lo: null, hi: null, ping: true });
    const [lateRow] = await repo.ingestMembers([{ companyId: a, member: m, fixes: [fix(T - 60_000, 46.15)], source: 'app', now: T + 7 }]);
    expect(lateRow).toMatchObject({ n: 1, lo: T - 60_000, hi: T - 60_000, ping: false });
    expect(await rowOf(a, m)).toMatchObject({ ts: T, ping: null, signal_ts: T + 6, late: 1 });
    expect((await fixesOf(a, m)).map((f: { ts: number }) => f.ts)).toEqual([T - 180_000, T - 60_000, T]);

    // two items (members) in one statement, each its own row; another company's member is untouched
    const m2 = await createIntMember(ds, a);
    const rows = await repo.ingestMembers([
      { companyId: a, member: m2, fixes: [fix(T, 45)], source: 'app', now: T + 8 },
      { companyId: b, member: other, fixes: [], source: 'app', now: T + 8 },
    ]);
    expect(rows.map((r) => [r.member_id, r.n])).toEqual([
      [m2, 1],
      [other, 0],
    ]);
    expect(await fixesOf(b, other)).toEqual([]);
    expect(await fixesOf(b, m)).toEqual([]);
  });

  it("ingests devices' items: the active member holding the device id (any case), none for an unknown one", async () => {
    const m = await createIntMember(ds, b);
    const device = `int-dev-${m}`;
    await ds.query(
      `WITH d AS (INSERT INTO member_device_ids (device_id, company_id, member_id) VALUES (lower($2), $3, $1))
       UPDATE members SET device_id = $2 WHERE company_id = $3 AND id = $1`,
      [m, device, b],
    );
    const rows = await repo.ingestDevices([
      { companyId: null, member: device.toUpperCase(), fixes: [fix(T, 44)], source: 'osmand', now: T + 1 },
      { companyId: null, member: `${device}-nobody`, fixes: [fix(T, 44)], source: 'osmand', now: T + 1 },
    ]);
    expect(rows).toEqual([
      { company_id: b, member_id: m, n: 1, lo: T, hi: T, ping: false },
      { company_id: null, member_id: null, n: 0, lo: null, hi: null, ping: false },
    ]);
    expect(await rowOf(b, m)).toMatchObject({ ts: T, source: 'osmand', tracking_status: true });
    await ds.query(`UPDATE members SET active_status = 'inactive' WHERE id = $1`, [m]);
    expect((await repo.ingestDevices([{ companyId: null, member: device, fixes: [], source: 'osmand', now: T + 2 }]))[0].member_id).toBeNull();
  });

  it('the tracking transaction: locks (creating) the row, inserts fixes, updates the row — one member of one company', async () => {
    const m = await createIntMember(ds, a);
    const other = await createIntMember(ds, b);
    await ds.transaction(async (db) => {
      expect(await repo.lockRow(db, a, m, T)).toMatchObject({ ts: null, tracking_status: false, tracking_ts: 0, ping_requested_at: null });
      expect(await repo.insertFixes(db, a, m, T + 1, [fix(T - 1000, 47), fix(T, 47.1)])).toEqual({ n: 2, lo: T - 1000, hi: T });
      expect(await repo.insertFixes(db, a, m, T + 1, [fix(T, 47.1)])).toEqual({ n: 0, lo: null, hi: null });
      await repo.updateRow(db, a, m, {
        latest: fix(T, 47.1),
        anchor: null,
        source: 'app',
        receivedAt: T + 1,
        trackingStatus: true,
        trackingTs: T,
        device: { android_id: 'tx' },
        pingRequestedAt: null,
        signalTs: null,
        updatedAt: T + 1,
        late: true,
      });
    });
    expect(await rowOf(a, m)).toMatchObject({ ts: T, lat: 47.1, source: 'app', tracking_status: true, tracking_ts: T, android_id: 'tx', late: 1 });
    expect(await fixesOf(a, m)).toEqual([
      { ts: T - 1000, lat: 47, received: T + 1 },
      { ts: T, lat: 47.1, received: T + 1 },
    ]);
    // the same member id under another company: no row written there
    await repo.updateRow(ds, b, m, {
      latest: null,
      anchor: null,
      source: null,
      receivedAt: null,
      trackingStatus: false,
      trackingTs: 1,
      device: {},
      pingRequestedAt: null,
      signalTs: null,
      updatedAt: T,
      late: false,
    });
    expect(await rowOf(b, m)).toBeUndefined();
    expect(await rowOf(b, other)).toBeUndefined();
  });

  it('inserts a clock event once per member and ts', async () => {
    const m = await createIntMember(ds, a);
    const e = { companyId: a, memberId: m, ts: T, tracking: true, location: { lat: 46, lng: 14 }, receivedAt: T + 1 };
    expect(await repo.insertClockEvent(ds, e)).toBe(true);
    expect(await repo.insertClockEvent(ds, { ...e, tracking: false })).toBe(false);
    expect(await repo.insertClockEvent(ds, { ...e, companyId: b })).toBe(true);
    const rows = await ds.query(`SELECT company_id, tracking, lat, lng FROM clock_events WHERE member_id = $1 ORDER BY company_id = $2 DESC`, [m, a]);
    expect(rows).toEqual([
      { company_id: a, tracking: true, lat: 46, lng: 14 },
      { company_id: b, tracking: true, lat: 46, lng: 14 },
    ]);
  });
});
