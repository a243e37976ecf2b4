import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { teamsListedIn } from './teams-listed-in.read';

describe('teamsListedIn (PostgreSQL)', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = await openIntegrationDb();
  });
  afterAll(() => ds.destroy());

  it('answers the teams live rows of the company list, for each table', async () => {
    const a = (await createIntCompany(ds)).companyId;
    const b = (await createIntCompany(ds)).companyId;
    const place = (companyId: string, teams: number[], deletedAt: number | null = null) =>
      ds.query(`INSERT INTO places (id, company_id, name, teams, created_at, deleted_at) VALUES ($1, $2, 'p', $3::jsonb, 1, $4)`, [
        newId(),
        companyId,
        JSON.stringify(teams),
        deletedAt,
      ]);
    await place(a, [1, 2]);
    await place(a, [3], 5); // deleted: doesn't count
    await place(b, [4]); // another company's
    expect((await teamsListedIn(ds, 'places', a, [1, 3, 4, 9])).sort()).toEqual([1]);
    expect(await teamsListedIn(ds, 'zones', a, [1])).toEqual([]);
    expect(await teamsListedIn(ds, 'alert_rules', a, [1])).toEqual([]);
  });
});
