import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { NotificationsRepository } from './notifications.repository';

describe('NotificationsRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: NotificationsRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new NotificationsRepository(ds);
  });
  afterAll(() => ds.destroy());

  it('lists a member its own notifications, and the company-wide ones only when asked, within its company', async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const m1 = await createIntMember(ds, a);
    const m2 = await createIntMember(ds, a);
    await repo.insert(ds, { companyId: a, memberId: m1, kind: 'route_changed', jobId: 'J1' });
    await repo.insert(ds, { companyId: a, memberId: m2, kind: 'route_changed', jobId: 'J2' });
    await repo.insert(ds, { companyId: a, memberId: null, kind: 'company_wide', jobId: null });
    await repo.insert(ds, { companyId: b, memberId: m1, kind: 'route_changed', jobId: 'J3' }); // another company's row for the same id

    const own = await repo.list(a, m1, { since: 0, limit: 100, includeCompanyWide: false });
    expect(own.map((n) => [n.kind, n.memberUid, n.jobId])).toEqual([['route_changed', m1, 'J1']]);
    expect(typeof own[0].ts).toBe('number');

    const withWide = await repo.list(a, m1, { since: 0, limit: 100, includeCompanyWide: true });
    expect(withWide.map((n) => n.jobId).sort()).toEqual(['J1', null].sort());
    expect(withWide.find((n) => n.memberUid === null)?.kind).toBe('company_wide');

    expect((await repo.list(b, m1, { since: 0, limit: 100, includeCompanyWide: true })).map((n) => n.jobId)).toEqual(['J3']);
  });

  it('orders by ts then id, from `since` inclusive, at most `limit`', async () => {
    const { companyId } = await createIntCompany(ds);
    const m = await createIntMember(ds, companyId);
    // one transaction: the same database clock for all three rows, so the ids order them
    await ds.transaction(async (db) => {
      for (const jobId of ['A', 'B', 'C']) await repo.insert(db, { companyId, memberId: m, kind: 'route_changed', jobId });
    });
    const all = await repo.list(companyId, m, { since: 0, limit: 100, includeCompanyWide: false });
    expect(all.map((n) => n.jobId)).toEqual(['A', 'B', 'C']);
    expect(all.map((n) => n.id)).toEqual([...all.map((n) => n.id)].sort());
    expect((await repo.list(companyId, m, { since: 0, limit: 2, includeCompanyWide: false })).map((n) => n.jobId)).toEqual(['A', 'B']);
    expect(await repo.list(companyId, m, { since: all[0].ts, limit: 100, includeCompanyWide: false })).toHaveLength(3);
    expect(await repo.list(companyId, m, { since: all[0].ts + 1, limit: 100, includeCompanyWide: false })).toEqual([]);
  });
});
