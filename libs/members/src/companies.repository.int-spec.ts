import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, IntCompany, openIntegrationDb } from '@test/support/integration';
import { CompaniesRepository } from './companies.repository';
import { MembersRepository } from './members.repository';

describe('CompaniesRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: CompaniesRepository;
  let a: IntCompany;
  let b: IntCompany;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new CompaniesRepository(ds);
    a = await createIntCompany(ds, { timezone: 'Europe/Ljubljana' });
    b = await createIntCompany(ds);
  });
  afterAll(() => ds.destroy());

  it('reads a company by id, its owner and the owner’s username', async () => {
    expect((await repo.findById(a.companyId))?.timezone).toBe('Europe/Ljubljana');
    expect(await repo.findById('01NOSUCHCOMPANY00000000000')).toBeNull();
    expect((await repo.findByIdOrFail(b.companyId)).id).toBe(b.companyId);
    await expect(repo.findByIdOrFail('01NOSUCHCOMPANY00000000000')).rejects.toThrow();
    expect(await repo.ownerId(a.companyId)).toBe(a.ownerId);
    expect(await repo.ownerId('01NOSUCHCOMPANY00000000000')).toBeNull();
    expect(await repo.ownerUsername(a.companyId)).toBe(a.ownerUsername);
    expect(await repo.ownerUsername('01NOSUCHCOMPANY00000000000')).toBe('');
  });

  it('inserts a company and sets its owner; lock and save change that company only', async () => {
    const members = new MembersRepository(ds);
    const companyId = newId();
    const ownerId = newId();
    const now = Date.now();
    await repo.transaction(async (db) => {
      await repo.insert(db, { id: companyId, name: 'Inserted', timezone: 'UTC', teamsConfig: [], createdAt: now, updatedAt: now });
      await members.insert(db, {
        id: ownerId,
        companyId,
        username: `own-${ownerId}@int.test`,
        name: 'O',
        role: 'administrator',
        createdAt: now,
        updatedAt: now,
      });
      await repo.setOwner(db, companyId, ownerId);
    });
    expect(await repo.ownerId(companyId)).toBe(ownerId);
    expect(await repo.ownerUsername(companyId)).toBe(`own-${ownerId}@int.test`);

    await repo.transaction(async (db) => {
      const c = await repo.lock(db, companyId);
      c.name = 'Renamed';
      c.teamsConfig = [{ id: 1, name: 'T' }];
      await repo.save(db, c);
    });
    expect((await repo.findByIdOrFail(companyId)).name).toBe('Renamed');
    expect((await repo.findByIdOrFail(companyId)).teamsConfig).toEqual([{ id: 1, name: 'T' }]);
    expect((await repo.findByIdOrFail(a.companyId)).name).not.toBe('Renamed');
    await expect(repo.transaction((db) => repo.lock(db, '01NOSUCHCOMPANY00000000000'))).rejects.toThrow();
  });
});
