import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { AlertFixState, AlertMemberStatesRepository } from './alert-member-states.repository';

describe('AlertMemberStatesRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: AlertMemberStatesRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new AlertMemberStatesRepository();
  });
  afterAll(() => ds.destroy());

  const stateOf = (companyId: string, memberId: string) =>
    ds
      .query(`SELECT evaluated_ts::float8 AS ts, state FROM alert_member_states WHERE company_id = $1 AND member_id = $2`, [companyId, memberId])
      .then((rows: Array<{ ts: number; state: unknown }>) => rows[0]);

  it('creates missing rows ({} when no state given), updates evaluated_ts always and the state only when given, per company', async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const m1 = await createIntMember(ds, a);
    const m2 = await createIntMember(ds, a);
    const state: AlertFixState = { zones: {}, battery: { R1: { low: true } }, still: null };
    await ds.transaction((db) =>
      repo.saveStates(db, [
        { companyId: a, memberId: m1, evaluatedTs: 10, state },
        { companyId: a, memberId: m2, evaluatedTs: 20, state: null },
        { companyId: b, memberId: m1, evaluatedTs: 30, state: null }, // the same member id under another company: its own row
      ]),
    );
    expect(await stateOf(a, m1)).toEqual({ ts: 10, state });
    expect(await stateOf(a, m2)).toEqual({ ts: 20, state: {} });
    expect(await stateOf(b, m1)).toEqual({ ts: 30, state: {} });

    await ds.transaction((db) => repo.saveStates(db, [{ companyId: a, memberId: m1, evaluatedTs: 40, state: null }]));
    expect(await stateOf(a, m1)).toEqual({ ts: 40, state }); // kept
    const next: AlertFixState = { zones: {}, battery: {}, still: { since: 5, lat: 1, lng: 2 } };
    await ds.transaction((db) => repo.saveStates(db, [{ companyId: a, memberId: m1, evaluatedTs: 50, state: next }]));
    expect(await stateOf(a, m1)).toEqual({ ts: 50, state: next });
    expect(await stateOf(b, m1)).toEqual({ ts: 30, state: {} }); // untouched
    await ds.transaction((db) => repo.saveStates(db, []));
  });
});
