import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { AlertFiringsRepository } from '../alert-firings.repository';
import { AlertRulesRepository } from '../alert-rules.repository';
import { AlertRule } from '../entities/alert-rule.entity';
import { AlertMemberStatesRepository } from './alert-member-states.repository';
import { ClockCandidatesRead } from './locations-clock-candidates.read';

function rule(companyId: string, over: Partial<AlertRule>): AlertRule {
  return {
    id: newId(),
    companyId,
    title: 'T',
    description: '',
    action: 'no_check_in',
    members: [],
    teams: [],
    placeId: null,
    zoneId: null,
    interval: null,
    threshold: null,
    window: null,
    active: true,
    createdAt: 1,
    updatedAt: null,
    deletedAt: null,
    ...over,
  };
}

describe('ClockCandidatesRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: ClockCandidatesRead;
  let rules: AlertRulesRepository;
  let firings: AlertFiringsRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new ClockCandidatesRead(ds);
    rules = new AlertRulesRepository(ds);
    firings = new AlertFiringsRepository(ds);
  });
  afterAll(() => ds.destroy());

  async function place(companyId: string, deleted = false): Promise<string> {
    const id = newId();
    await ds.query(`INSERT INTO places (id, company_id, name, created_at, deleted_at) VALUES ($1, $2, 'P', 1, $3)`, [id, companyId, deleted ? 2 : null]);
    return id;
  }
  const checkin = (companyId: string, memberId: string, placeId: string, inTs: number, outTs: number | null = null) =>
    ds.query(`INSERT INTO checkins (company_id, id, member_id, place_id, in_ts, out_ts) VALUES ($1, $2, $3, $4, $5, $6)`, [
      companyId,
      newId(),
      memberId,
      placeId,
      inTs,
      outTs,
    ]);
  const located = (companyId: string, memberId: string, ts: number, tracking = true) =>
    ds.query(`INSERT INTO member_locations (company_id, member_id, ts, tracking_status, updated_at) VALUES ($1, $2, $3, $4, $3)`, [
      companyId,
      memberId,
      ts,
      tracking,
    ]);
  const fire = (r: AlertRule, memberId: string, occurrence: string) =>
    firings.transaction((db) =>
      firings.insertOnce(db, r.companyId, [
        { id: newId(), ruleId: r.id, memberId, action: r.action, occurrence, placeId: null, zoneId: null, checkType: null, message: '', ts: 1 },
      ]),
    );

  it('no_check_*: targeted members without a check at the place in the period, not fired yet; nothing for a deleted place', async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const checked = await createIntMember(ds, a);
    const missing = await createIntMember(ds, a);
    const fired = await createIntMember(ds, a);
    const outOnly = await createIntMember(ds, a);
    await createIntMember(ds, a, { role: 'dispatcher' }); // not a worker: not targeted by a rule without targets
    await createIntMember(ds, b); // another company's worker
    const p = await place(a);
    const period = { start: 1000, deadline: Date.now() + 60_000 };
    await checkin(a, checked, p, 2000);
    await checkin(a, outOnly, p, 10, 3000); // came in before the period, left inside it
    const r = rule(a, { action: 'no_check_in', placeId: p });
    await rules.insert(r);
    await fire(r, fired, '20261127');
    const sorted = (ids: string[]) => [...ids].sort();
    expect(sorted(await read.membersWithoutCheck(r, 'in', period, '20261127'))).toEqual(sorted([missing, outOnly]));
    expect(sorted(await read.membersWithoutCheck(r, 'out', period, '20261127'))).toEqual(sorted([checked, missing]));
    expect(sorted(await read.membersWithoutCheck(r, 'any', period, '20261127'))).toEqual(sorted([missing]));
    // members created after the deadline don't count
    expect(await read.membersWithoutCheck(r, 'in', { start: 1000, deadline: 1001 }, 'x')).toEqual([]);
    const gone = rule(a, { placeId: await place(a, true) });
    await rules.insert(gone);
    expect(await read.membersWithoutCheck(gone, 'in', period, 'y')).toEqual([]);
  });

  it('no_connection_to_device: tracking members whose latest fix is at least `interval` old, once per fix', async () => {
    const { companyId } = await createIntCompany(ds);
    const silent = await createIntMember(ds, companyId);
    const recent = await createIntMember(ds, companyId);
    const notTracking = await createIntMember(ds, companyId);
    const firedFor = await createIntMember(ds, companyId);
    await located(companyId, silent, 1000);
    await located(companyId, recent, 9000);
    await located(companyId, notTracking, 1000, false);
    await located(companyId, firedFor, 1500);
    const r = rule(companyId, { action: 'no_connection_to_device', interval: 5000 });
    await rules.insert(r);
    await fire(r, firedFor, '1500');
    expect(await read.silentMembers(r, 10_000)).toEqual([{ memberId: silent, lastTs: 1000 }]);
  });

  it('idle: tracking members whose still period, evaluated up to their latest fix, began at least `interval` ago', async () => {
    const { companyId } = await createIntCompany(ds);
    const idle = await createIntMember(ds, companyId);
    const moving = await createIntMember(ds, companyId);
    const behind = await createIntMember(ds, companyId);
    for (const m of [idle, moving, behind]) await located(companyId, m, 5000);
    const still = (since: number) => ({ zones: {}, battery: {}, still: { lat: 1, lng: 1, since } });
    await ds.transaction((db) =>
      new AlertMemberStatesRepository().saveStates(db, [
        { companyId, memberId: idle, evaluatedTs: 5000, state: still(1000) },
        { companyId, memberId: moving, evaluatedTs: 5000, state: still(8000) },
        { companyId, memberId: behind, evaluatedTs: 4000, state: still(1000) }, // not evaluated up to its latest fix
      ]),
    );
    const r = rule(companyId, { action: 'idle', interval: 3000 });
    await rules.insert(r);
    expect(await read.idleMembers(r, 10_000)).toEqual([{ memberId: idle, since: 1000 }]);
    await fire(r, idle, '1000');
    expect(await read.idleMembers(r, 10_000)).toEqual([]);
  });
});
