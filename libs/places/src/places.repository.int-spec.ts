import { newId, toPoint } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, IntCompany, openIntegrationDb } from '@test/support/integration';
import { PlaceViewsReader } from './members-place-views.read';
import { PlacesRepository } from './places.repository';

describe('PlacesRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: PlacesRepository;
  let views: PlaceViewsReader;
  let a: IntCompany;
  let b: IntCompany;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new PlacesRepository(ds);
    views = new PlaceViewsReader(ds);
    a = await createIntCompany(ds);
    b = await createIntCompany(ds);
  });
  afterAll(() => ds.destroy());

  async function insert(c: IntCompany, name: string, teams: number[] = []): Promise<string> {
    const id = newId();
    await repo.insert({
      id,
      companyId: c.companyId,
      name,
      teams,
      creatorId: c.ownerId,
      createdAt: 1000,
      location: toPoint({ lat: 46, lng: 14 }),
    });
    return id;
  }

  it('inserts, updates and soft-deletes the company’s places only; live ids leave deleted and other companies’ out', async () => {
    const p = await insert(a, 'Depot', [1]);
    const q = await insert(a, 'Yard');
    const theirs = await insert(b, 'Theirs');
    expect(await repo.liveIds(a.companyId, [p, q, theirs, newId()])).toEqual(new Set([p, q]));
    expect(await repo.liveIds(a.companyId, [])).toEqual(new Set());

    await repo.transaction((db) => repo.update(db, a.companyId, [p, theirs], { name: 'Main depot', radius: 30 }, 2000));
    const [view] = await views.byIds(a.companyId, [p]);
    expect(view).toMatchObject({
      name: 'Main depot',
      radius: 30,
      teams: [1],
      tsCreated: 1000,
      tsSaved: 2000,
      location: { lat: 46, lng: 14 },
    });
    expect((await views.byIds(b.companyId, [theirs]))[0].name).toBe('Theirs');

    await repo.softDelete(ds, b.companyId, [p], 3000); // not b's: nothing
    expect(await repo.liveIds(a.companyId, [p])).toEqual(new Set([p]));
    await repo.softDelete(ds, a.companyId, [p, theirs], 3000);
    expect(await repo.liveIds(a.companyId, [p, q])).toEqual(new Set([q]));
    expect(await repo.liveIds(b.companyId, [theirs])).toEqual(new Set([theirs]));
  });

  it('locks live places of the company, within the teams given', async () => {
    const c = await createIntCompany(ds);
    const t1 = await insert(c, 'T1', [1]);
    const t2 = await insert(c, 'T2', [2]);
    const none = await insert(c, 'None');
    const gone = await insert(c, 'Gone', [1]);
    await repo.softDelete(ds, c.companyId, [gone], 5);
    const theirs = await insert(b, 'Theirs', [1]);
    await repo.transaction(async (db) => {
      expect(await repo.lockLive(db, c.companyId, [t1, t2, none, gone, theirs])).toEqual(new Set([t1, t2, none]));
      expect(await repo.lockLive(db, c.companyId, [t1, t2, none], [1, 3])).toEqual(new Set([t1]));
      expect(await repo.lockLive(db, c.companyId, [t1, t2], [])).toEqual(new Set());
    });
  });

  it('answers which teams live places of the company list', async () => {
    const c = await createIntCompany(ds);
    await insert(c, 'A', [1, 2]);
    const gone = await insert(c, 'B', [3]);
    await repo.softDelete(ds, c.companyId, [gone], 5);
    await insert(b, 'Theirs', [4]);
    expect((await repo.teamsInUse(ds, c.companyId, [1, 3, 4, 9])).sort()).toEqual([1]);
  });
});
