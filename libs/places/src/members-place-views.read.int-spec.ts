import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { PlaceViewsReader } from './members-place-views.read';
import { PlacesRepository } from './places.repository';

describe('PlaceViewsReader (PostgreSQL)', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = await openIntegrationDb();
  });
  afterAll(() => ds.destroy());

  it('reads the company’s places by id (deleted ones too) with the creator’s name, never another company’s', async () => {
    const repo = new PlacesRepository(ds);
    const reader = new PlaceViewsReader(ds);
    const a = await createIntCompany(ds);
    const b = await createIntCompany(ds);
    const creator = await createIntMember(ds, a.companyId, { name: 'Ann' });
    const outsider = await createIntMember(ds, b.companyId, { name: 'Bob' });
    const mine = newId();
    const byOutsider = newId();
    const theirs = newId();
    await repo.insert({
      id: mine,
      companyId: a.companyId,
      name: 'Mine',
      teams: [2],
      creatorId: creator,
      createdAt: 1,
      data: [{ key: 'k', val: 'v' }],
    });
    // a creator id of another company's member reads no name
    await repo.insert({ id: byOutsider, companyId: a.companyId, name: 'Odd', teams: [], creatorId: outsider, createdAt: 2 });
    await repo.insert({ id: theirs, companyId: b.companyId, name: 'Theirs', teams: [], creatorId: outsider, createdAt: 3 });
    await repo.softDelete(ds, a.companyId, [byOutsider], 4);

    const views = await reader.byIds(a.companyId, [mine, byOutsider, theirs, mine]);
    expect(views.map((v) => v.uid).sort()).toEqual([mine, byOutsider].sort());
    expect(views.find((v) => v.uid === mine)).toEqual({
      uid: mine,
      name: 'Mine',
      address: '',
      city: '',
      state: '',
      postalcode: '',
      country_code: '',
      phone: '',
      email: '',
      location: null,
      radius: 0,
      color: '',
      linkedForms: '',
      creator: 'Ann',
      data: [{ k: 'v' }],
      teams: [2],
      tsCreated: 1,
      tsSaved: 1,
    });
    expect(views.find((v) => v.uid === byOutsider)).toMatchObject({ creator: '', tsSaved: 4 });
    expect(await reader.byIds(a.companyId, [])).toEqual([]);
  });
});
