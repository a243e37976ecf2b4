import { newId, toPoint } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, IntCompany, openIntegrationDb } from '@test/support/integration';
import { PlaceViewsReader } from './members-place-views.read';
import { ConnectorPlacesFilter, PlacesRepository } from './places.repository';

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

  it('pages the connector’s places: newest change first (edit time, else creation; ties by id), since inclusive, name filter literal, teams, scoped', async () => {
    const c = await createIntCompany(ds);
    const at = async (company: IntCompany, name: string, createdAt: number, teams: number[] = []) => {
      const id = newId();
      await repo.insert({ id, companyId: company.companyId, name, teams, creatorId: company.ownerId, createdAt });
      return id;
    };
    const old = await at(c, 'Old 100%', 1000, [1]);
    const edited = await at(c, 'Edited', 1500);
    const twinOfTeam2 = await at(c, 'Twin', 3000, [2]);
    const twins = [twinOfTeam2, await at(c, 'Twin', 3000)].sort().reverse(); // ties: id descending
    const gone = await at(c, 'Gone', 4000);
    const fresh = await at(c, 'Fresh', 9000);
    await at(b, 'Theirs', 9500);
    await repo.transaction((db) => repo.update(db, c.companyId, [edited], { radius: 5 }, 5000));
    await repo.softDelete(ds, c.companyId, [gone], 6000);

    const page = async (f: Partial<ConnectorPlacesFilter> = {}) =>
      (await repo.connectorPage({ companyId: c.companyId, limit: 100, skip: 0, ...f })).map((r) => r.id);
    expect(await page()).toEqual([fresh, edited, ...twins, old]);
    expect(await page({ updatedSince: 3000, limit: 2, skip: 1 })).toEqual([edited, twins[0]]);
    expect(await page({ updatedSince: 5000 })).toEqual([fresh, edited]);
    expect(await page({ updatedSince: 5001 })).toEqual([fresh]);
    expect(await page({ query: '100%' })).toEqual([old]);
    expect(await page({ query: 'd_' })).toEqual([]);
    expect(await page({ query: 'twin' })).toEqual(twins);
    expect(await page({ teams: [1, 2] })).toEqual([twinOfTeam2, old]);
    expect(await page({ teams: [] })).toEqual([]);
    const [row] = await repo.connectorPage({ companyId: c.companyId, limit: 1, skip: 4 });
    expect(row).toMatchObject({ id: old, name: 'Old 100%', createdAt: 1000, updatedAt: null, creatorName: null, lat: null, teams: [1] });
  });
});
