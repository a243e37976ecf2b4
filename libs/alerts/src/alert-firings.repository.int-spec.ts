import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { AlertFiringsRepository, FiringRowInput } from './alert-firings.repository';

describe('AlertFiringsRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: AlertFiringsRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new AlertFiringsRepository(ds);
  });
  afterAll(() => ds.destroy());

  function firing(over: Partial<FiringRowInput> & Pick<FiringRowInput, 'ruleId' | 'memberId'>): FiringRowInput {
    return { id: newId(), action: 'battery_low', occurrence: '1', placeId: null, zoneId: null, checkType: null, message: 'low', ts: 1000, ...over };
  }

  it('stores each (rule, member, occurrence) once and answers only the rows it inserted', async () => {
    const { companyId } = await createIntCompany(ds);
    const m = await createIntMember(ds, companyId);
    const first = firing({ ruleId: 'R1', memberId: m, occurrence: 'o1' });
    const second = firing({ ruleId: 'R1', memberId: m, occurrence: 'o2', placeId: 'P1', checkType: 'IN' });
    expect(await repo.transaction((db) => repo.insertOnce(db, companyId, [first, second]))).toEqual([first.id, second.id]);
    const again = firing({ ruleId: 'R1', memberId: m, occurrence: 'o1' });
    const third = firing({ ruleId: 'R1', memberId: m, occurrence: 'o3' });
    expect(await repo.transaction((db) => repo.insertOnce(db, companyId, [again, third]))).toEqual([third.id]);
    expect(await repo.transaction((db) => repo.insertOnce(db, companyId, []))).toEqual([]);
    // the same occurrence in another company is another firing
    const { companyId: other } = await createIntCompany(ds);
    expect(await repo.transaction((db) => repo.insertOnce(db, other, [firing({ ruleId: 'R1', memberId: m, occurrence: 'o1' })]))).toHaveLength(1);
    const rows = await repo.list(companyId, { since: 0, ruleId: null, limit: 100 });
    expect(rows.map((r) => r.id).sort()).toEqual([first.id, second.id, third.id].sort());
    expect(rows.find((r) => r.id === second.id)).toMatchObject({ ruleId: 'R1', memberId: m, placeId: 'P1', checkType: 'IN', action: 'battery_low' });
  });

  it('lists the company firings newest first from `since`, by rule, at most `limit`', async () => {
    const { companyId } = await createIntCompany(ds);
    const { companyId: other } = await createIntCompany(ds);
    const m = await createIntMember(ds, companyId);
    const f = [
      firing({ ruleId: 'RA', memberId: m, occurrence: 'a', ts: 100 }),
      firing({ ruleId: 'RB', memberId: m, occurrence: 'b', ts: 300 }),
      firing({ ruleId: 'RA', memberId: m, occurrence: 'c', ts: 200 }),
    ];
    await repo.transaction((db) => repo.insertOnce(db, companyId, f));
    await repo.transaction((db) => repo.insertOnce(db, other, [firing({ ruleId: 'RA', memberId: m, occurrence: 'x', ts: 250 })]));
    const ts = async (q: { since?: number; ruleId?: string; limit?: number }) =>
      (await repo.list(companyId, { since: q.since ?? 0, ruleId: q.ruleId ?? null, limit: q.limit ?? 100 })).map((r) => Number(r.ts));
    expect(await ts({})).toEqual([300, 200, 100]);
    expect(await ts({ since: 200 })).toEqual([300, 200]);
    expect(await ts({ ruleId: 'RA' })).toEqual([200, 100]);
    expect(await ts({ limit: 1 })).toEqual([300]);
  });
});
