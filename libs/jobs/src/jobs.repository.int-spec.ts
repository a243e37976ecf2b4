import { newId, OutboxRepository } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { Job } from './entities/job.entity';
import { newJobState } from './job-write';
import { JobStampsRepository } from './job-stamps.repository';
import { JobsRepository } from './jobs.repository';

/**
 * JobsRepository against PostgreSQL: each write and lock (company scoping: another company's jobs never
 * come back and never change), the view rows, team references and the connector listing. getjobs'
 * filter matrix is in `jobs-search.int-spec.ts`.
 */
describe('JobsRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: JobsRepository;
  let a: string;
  let b: string;
  let owner: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new JobsRepository(ds);
    const ca = await createIntCompany(ds, { timezone: 'Europe/Ljubljana' });
    a = ca.companyId;
    owner = ca.ownerId;
    b = (await createIntCompany(ds)).companyId;
  });
  afterAll(() => ds.destroy());

  /** A new job of `companyId` as createjobs would insert it, with `over` applied. */
  function job(companyId: string, over: Partial<Job> = {}): Job {
    return { ...newJobState({ id: newId(), companyId, isTemplate: false, createdBy: owner, createdVia: 'api', now: Date.now() }), ...over };
  }

  async function insert(...jobs: Job[]): Promise<Job[]> {
    await repo.insertMany(ds, jobs);
    return jobs;
  }

  it('insertMany answers the view rows it wrote, with what the view joins; a taken uidSecondary is skipped', async () => {
    const worker = await createIntMember(ds, a, { name: 'Ana' });
    const [j] = [job(a, { destinationName: 'Boiler', workerId: worker, uidSecondary: 'ext-1', orderId: 9_007_199_254_740 })];
    const rows = await repo.insertMany(ds, [j]);
    expect(rows.get(j.id)).toMatchObject({
      id: j.id,
      destinationName: 'Boiler',
      workerId: worker,
      workerName: 'Ana',
      orderId: 9_007_199_254_740,
      timezone: 'Europe/Ljubljana',
      defaultRadius: expect.any(Number),
      linkedZones: '',
      version: 1,
    });
    expect(rows.get(j.id)!.tsSaved).toBeGreaterThan(0);
    // the same uidSecondary again (a racing call): nothing inserted, nothing answered
    const dup = job(a, { uidSecondary: 'ext-1' });
    expect((await repo.insertMany(ds, [dup])).size).toBe(0);
    expect(await repo.rowsByIds(ds, a, [dup.id])).toEqual([]);
    // another company may hold the same uidSecondary
    expect((await repo.insertMany(ds, [job(b, { uidSecondary: 'ext-1' })])).size).toBe(1);
    expect(await repo.insertMany(ds, [])).toEqual(new Map());
  });

  it('insertMany writes each job as given, whichever properties the batch shares (sent once) and which differ (sent per job)', async () => {
    const worker = await createIntMember(ds, a, { name: 'Bo' });
    // shared by all three: company, creator, zeros…; differing: some in one job only (the others at the default)
    const batch = [
      job(a, { destinationName: 'A', customFields: [{ key: 'x', val: '1' }], extra: { extra_text_note: 'n' } }),
      job(a, { destinationName: 'B', workerId: worker, priority: 3, destinationLat: 46.05, destinationLng: 14.5 }),
      job(a, { destinationName: 'C', tsDoneSuccess: 1_700_000_000_000, orderId: 42, textDispatcher: 'call first' }),
    ];
    await repo.insertMany(ds, batch);
    const back = await repo.lockByIds(ds, a, batch.map((j) => j.id));
    for (const j of batch) {
      const { tsSaved: _s, createdAt: _c, createdStamp: _cs, savedStamp: _ss, ...row } = back.find((r) => r.id === j.id)! as Job & Record<string, unknown>;
      const { tsSaved: _s2, createdAt: _c2, createdStamp: _cs2, savedStamp: _ss2, ...sent } = j as Job & Record<string, unknown>;
      expect(row).toEqual(sent);
    }
    // one job alone: every property is "shared"
    const [one] = await insert(job(a, { destinationName: 'D', workerId: worker }));
    expect((await repo.lockByIds(ds, a, [one.id]))[0]).toMatchObject({ destinationName: 'D', workerId: worker, companyId: a });
  });

  it('insertMany answers each view row exactly as JOB_SELECT_SQL reads it back: assignee, dispatcher, place, zones, company', async () => {
    const c = (await createIntCompany(ds, { timezone: 'America/Chicago' })).companyId;
    const worker = await createIntMember(ds, c, { name: 'Wu' });
    const dispatcher = await createIntMember(ds, c, { name: 'Di' });
    const place = newId();
    await ds.query(
      `INSERT INTO places (id, company_id, name, location, radius, created_at) VALUES ($1, $2, 'Depot', ST_SetSRID(ST_MakePoint(14.002, 46.002), 4326)::geography, 75, 0)`,
      [place, c],
    );
    const square = (id: string, lng: number, lat: number, deleted: number | null) =>
      ds.query(
        `INSERT INTO zones (id, company_id, name, polygon, danger, teams, color, created_at, deleted_at)
         VALUES ($1, $2, 'Z', ST_GeomFromGeoJSON($3)::geography, false, '[]', '', 1, $4)`,
        [id, c, JSON.stringify({ type: 'Polygon', coordinates: [[[lng, lat], [lng + 0.01, lat], [lng + 0.01, lat + 0.01], [lng, lat + 0.01], [lng, lat]]] }), deleted],
      );
    const [z1, z2, gone] = [newId(), newId(), newId()].sort();
    await square(z1, 14, 46, null);
    await square(z2, 14.005, 46.005, null); // overlaps z1 around (46.007, 14.007)
    await square(gone, 14, 46, 5); // deleted: never linked
    const batch = [
      job(c, { destinationName: 'both zones', destinationLat: 46.007, destinationLng: 14.007, workerId: worker }),
      job(c, { destinationName: 'z1 by its place', placeUid: place, dispatcherUid: dispatcher }),
      job(c, { destinationName: 'outside', destinationLat: 45, destinationLng: 13, workerId: worker, dispatcherUid: dispatcher }),
      job(c, { destinationName: 'nowhere' }),
    ];
    const rows = await repo.insertMany(ds, batch);
    const back = new Map((await repo.rowsByIds(ds, c, batch.map((j) => j.id))).map((r) => [r.id, r]));
    for (const j of batch) expect(rows.get(j.id)).toEqual(back.get(j.id));
    expect(batch.map((j) => rows.get(j.id)!.linkedZones)).toEqual([`${z1},${z2}`, z1, '', '']);
    expect(rows.get(batch[1].id)).toMatchObject({ placeName: 'Depot', placeRadius: 75, dispatcherName: 'Di', workerName: null });
    expect(rows.get(batch[0].id)).toMatchObject({ workerName: 'Wu', timezone: 'America/Chicago', dispatcherName: null, placeName: null });
  });

  it('rowsByIds, lockByIds and lockByUidSecondary answer the company’s own jobs only', async () => {
    const [mine, tpl] = await insert(job(a, { uidSecondary: 'lock-1' }), job(a, { isTemplate: true }));
    const [theirs] = await insert(job(b, { uidSecondary: 'lock-1' }));
    expect((await repo.rowsByIds(ds, a, [mine.id, tpl.id, theirs.id])).map((r) => r.id).sort()).toEqual([mine.id, tpl.id].sort());
    expect(await repo.rowsByIds(ds, a, [])).toEqual([]);
    const locked = await ds.transaction((db) => repo.lockByIds(db, a, [theirs.id, tpl.id, mine.id]));
    expect(locked.map((j) => j.id)).toEqual([mine.id, tpl.id].sort());
    expect(locked.find((j) => j.id === mine.id)).toMatchObject({
      companyId: a,
      uidSecondary: 'lock-1',
      version: 1,
      tsCreated: mine.tsCreated,
    });
    const byUid = await ds.transaction((db) => repo.lockByUidSecondary(db, a, ['lock-1', 'none']));
    expect(byUid.map((j) => j.id)).toEqual([mine.id]);
  });

  it('updateChanged writes the changed properties, stamps ts_saved and bumps version; another company’s id changes nothing', async () => {
    const [j] = await insert(job(a, { destinationName: 'before' }));
    await repo.updateChanged(ds, { ...j, destinationName: 'after', customFields: [{ key: 'k', val: 'v' }] }, [
      'destinationName',
      'customFields',
    ]);
    await repo.updateChanged(ds, { ...j, companyId: b, destinationName: 'hijacked' }, ['destinationName']);
    const [row] = await repo.rowsByIds(ds, a, [j.id]);
    expect(row).toMatchObject({ destinationName: 'after', customFields: [{ key: 'k', val: 'v' }], version: 2 });
  });

  it('setNumbers renumbers the company’s non-template jobs, answering only those whose number changed', async () => {
    const [x, y, tpl] = await insert(job(a, { number: 1 }), job(a, { number: 2 }), job(a, { isTemplate: true }));
    const [theirs] = await insert(job(b));
    const changed = await repo.setNumbers(ds, a, [x.id, y.id, tpl.id, theirs.id], [1, 5, 7, 9]);
    expect(changed).toEqual([y.id]);
    const rows = await repo.rowsByIds(ds, a, [x.id, y.id, tpl.id]);
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.number, r.version]]))).toEqual({
      [x.id]: [1, 1],
      [y.id]: [5, 2],
      [tpl.id]: [0, 1],
    });
    expect((await repo.rowsByIds(ds, b, [theirs.id]))[0].number).toBe(0);
    expect(await repo.setNumbers(ds, a, [], [])).toEqual([]);
  });

  it('deleteByIds deletes the company’s own jobs only', async () => {
    const [mine] = await insert(job(a));
    const [theirs] = await insert(job(b));
    await repo.deleteByIds(ds, a, [mine.id, theirs.id]);
    expect(await repo.rowsByIds(ds, a, [mine.id])).toEqual([]);
    expect(await repo.rowsByIds(ds, b, [theirs.id])).toHaveLength(1);
  });

  it('teamsInUse: the teams a job of the company that is not archived carries', async () => {
    const c = (await createIntCompany(ds)).companyId;
    await insert(job(c, { teamId: 1 }), job(c, { teamId: 2, archived: true }), job(c, { teamId: 3 }));
    await insert(job(b, { teamId: 4 }));
    expect((await repo.teamsInUse(ds, c, [1, 2, 3, 4, 5])).sort()).toEqual([1, 3]);
  });

  describe('listForConnector (GET /v1/jobs)', () => {
    let c: string;
    let w1: string;
    let ctxBase: { companyId: string; includeArchived: boolean; limit: number; skip: number };

    beforeAll(async () => {
      c = (await createIntCompany(ds)).companyId;
      w1 = await createIntMember(ds, c, { username: `w1-${newId().toLowerCase()}@int.test` });
      ctxBase = { companyId: c, includeArchived: false, limit: 100, skip: 0 };
    });

    it('newest first by created_at, templates never, archived only when asked; externalId, assignee (case-insensitive), progress', async () => {
      const [old, mid, archived] = await insert(
        job(c, { destinationName: 'old', uidSecondary: 'e-old' }),
        job(c, { destinationName: 'mid', workerId: w1, tsAccepted: 5 }),
        job(c, { destinationName: 'archived', archived: true, tsDoneSuccess: 7 }),
      );
      await insert(job(c, { destinationName: 'tpl', isTemplate: true }), job(b, { destinationName: 'theirs', uidSecondary: 'e-old' }));
      // created_at comes from the database clock at insert: one statement, so equal; ties go by id, descending
      const all = await repo.listForConnector(ctxBase);
      expect(all.map((r) => r.id)).toEqual([old.id, mid.id].sort().reverse());
      expect((await repo.listForConnector({ ...ctxBase, includeArchived: true })).map((r) => r.id).sort()).toEqual(
        [old.id, mid.id, archived.id].sort(),
      );
      expect((await repo.listForConnector({ ...ctxBase, externalId: 'e-old' })).map((r) => r.id)).toEqual([old.id]);
      const username = (await ds.query(`SELECT username FROM members WHERE id = $1`, [w1]))[0].username as string;
      expect((await repo.listForConnector({ ...ctxBase, assigneeUsername: username.toUpperCase() })).map((r) => r.id)).toEqual([mid.id]);
      expect((await repo.listForConnector({ ...ctxBase, progress: ['accepted'] })).map((r) => r.id)).toEqual([mid.id]);
      expect(
        (await repo.listForConnector({ ...ctxBase, includeArchived: true, progress: ['success', 'scheduled'] })).map((r) => r.id).sort(),
      ).toEqual([old.id, archived.id].sort());
      expect((await repo.listForConnector({ ...ctxBase, ownWorkerId: w1 })).map((r) => r.id)).toEqual([mid.id]);
      expect(await repo.listForConnector({ ...ctxBase, limit: 1, skip: 1 })).toHaveLength(1);
    });

    it('createdSince / updatedSince match stamped jobs only, inclusive, newest first by their commit stamps (no horizon)', async () => {
      const d = (await createIntCompany(ds)).companyId;
      const stamps = new JobStampsRepository(ds);
      const outbox = new OutboxRepository(ds);
      const stamp = () => outbox.stamp(d, [stamps]);
      const stampOf = async (id: string) =>
        (await ds.query(`SELECT created_stamp::float8 AS c, saved_stamp::float8 AS s FROM jobs WHERE id = $1`, [id]))[0] as {
          c: number;
          s: number;
        };
      const base = { companyId: d, includeArchived: false, limit: 100, skip: 0 };
      const [first] = await insert(job(d, { destinationName: 'first' }));
      // committed but not stamped yet: not polled
      expect(await repo.listForConnector({ ...base, createdSince: 0 })).toEqual([]);
      expect((await repo.listForConnector(base)).map((r) => r.id)).toEqual([first.id]); // a listing without *Since is not
      await stamp();
      await new Promise((r) => setTimeout(r, 5));
      const [second] = await insert(job(d, { destinationName: 'second' }));
      await stamp();
      const s1 = await stampOf(first.id);
      const s2 = await stampOf(second.id);
      expect(s2.c).toBeGreaterThan(s1.c);
      expect((await repo.listForConnector({ ...base, createdSince: s1.c })).map((r) => r.destinationName)).toEqual(['second', 'first']);
      expect((await repo.listForConnector({ ...base, createdSince: s1.c + 1 })).map((r) => r.id)).toEqual([second.id]);
      // the answer keeps the job's own clocks (createdAt = insert time, updatedAt = tsSaved), never above its stamps
      const [row] = await repo.rowsByIds(ds, d, [first.id]);
      expect(row.createdAt).toBeLessThanOrEqual(s1.c);
      await new Promise((r) => setTimeout(r, 5));
      await repo.updateChanged(ds, { ...first, textDispatcher: 'touched' }, ['textDispatcher']);
      // an update leaves the job unstamped (the trigger) until the next stamping; its created stamp stays
      expect(await stampOf(first.id)).toEqual({ c: s1.c, s: null });
      expect((await repo.listForConnector({ ...base, updatedSince: 0 })).map((r) => r.id)).toEqual([second.id]);
      await stamp();
      const touched = await stampOf(first.id);
      expect(touched.s).toBeGreaterThan(s2.s);
      expect((await repo.listForConnector({ ...base, updatedSince: s2.s })).map((r) => r.id)).toEqual([first.id, second.id]);
      expect((await repo.listForConnector({ ...base, updatedSince: touched.s })).map((r) => r.id)).toEqual([first.id]);
      expect((await repo.listForConnector({ ...base, createdSince: s1.c + 1 })).map((r) => r.id)).toEqual([second.id]);
      expect(await repo.listForConnector({ ...base, createdSince: Date.now() + 60_000 })).toEqual([]);
    });
  });
});
