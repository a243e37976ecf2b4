import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { LocateRepository } from './locate.repository';

describe('LocateRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: LocateRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new LocateRepository(ds);
  });
  afterAll(() => ds.destroy());

  const pings = async (companyId: string) =>
    (
      await ds.query(
        `SELECT member_id, ping_requested_at::float8 AS ping, updated_at::float8 AS updated FROM member_locations WHERE company_id = $1 ORDER BY member_id`,
        [companyId],
      )
    ).map((r: { member_id: string; ping: number; updated: number }) => [r.member_id, r.ping, r.updated]);

  it("records pending pings, creating the members' rows when missing, in the company only", async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const [m1, m2] = [await createIntMember(ds, a), await createIntMember(ds, a)].sort();
    await repo.requestPing(a, [m1], 100);
    expect(await pings(a)).toEqual([[m1, 100, 100]]);
    // an existing row keeps its updated_at; a new one gets it
    await repo.requestPing(a, [m1, m2], 200);
    expect(await pings(a)).toEqual([
      [m1, 200, 100],
      [m2, 200, 200],
    ]);
    expect(await pings(b)).toEqual([]);
  });
});
