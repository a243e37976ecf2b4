import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { AlertRulesRepository } from '../alert-rules.repository';
import { AlertRule } from '../entities/alert-rule.entity';
import { AlertMemberStatesRepository } from './alert-member-states.repository';
import { RuleTargetsRead } from './members-rule-targets.read';

function rule(companyId: string, over: Partial<AlertRule> = {}): AlertRule {
  return {
    id: newId(),
    companyId,
    title: 'T',
    description: '',
    action: 'battery_low',
    members: [],
    teams: [],
    placeId: null,
    zoneId: null,
    interval: null,
    threshold: 15,
    window: null,
    active: true,
    createdAt: Date.now(),
    updatedAt: null,
    deletedAt: null,
    ...over,
  };
}

describe('RuleTargetsRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: RuleTargetsRead;
  let rules: AlertRulesRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new RuleTargetsRead(ds);
    rules = new AlertRulesRepository(ds);
  });
  afterAll(() => ds.destroy());

  it('reads a company evaluation settings; undefined for an unknown id', async () => {
    const { companyId } = await createIntCompany(ds, { timezone: 'Europe/Ljubljana' });
    const company = await read.company(ds, companyId);
    expect(company).toMatchObject({ id: companyId, timezone: 'Europe/Ljubljana' });
    expect(typeof company!.dwellSeconds).toBe('number');
    expect(await read.company(ds, newId())).toBeUndefined();
  });

  it('lists the live rules of some actions of every company, with the company', async () => {
    const { companyId } = await createIntCompany(ds);
    const idle = rule(companyId, { action: 'idle', interval: 60_000, threshold: null });
    await rules.insert(idle);
    await rules.insert(rule(companyId, { action: 'idle', interval: 60_000, threshold: null, active: false }));
    await rules.insert(rule(companyId, { action: 'idle', interval: 60_000, threshold: null, deletedAt: 1 }));
    await rules.insert(rule(companyId, { action: 'battery_low' }));
    const mine = (await read.liveRules(['idle'])).filter((r) => r.company.id === companyId);
    expect(mine).toEqual([{ rule: idle, company: expect.objectContaining({ id: companyId, timezone: 'UTC' }) }]);
  });

  it("answers each member's rule stamp and targeting facts in its own company; with state, its row and the company", async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const w = await createIntMember(ds, a, { teams: [2] });
    const stranger = await createIntMember(ds, b);
    const rows = () =>
      read.lookup(
        ds,
        [
          { companyId: a, memberId: w },
          { companyId: a, memberId: stranger },
        ],
        false,
      );
    const [none] = await rows();
    expect(none).toMatchObject({ k: 1, stamp: null, member: { id: w, role: 'worker', teams: [2], active: true } });

    const r = rule(a);
    await rules.insert(r);
    const [first, other] = await rows();
    expect(first.stamp).toMatch(/^1:\d+$/);
    expect(other).toMatchObject({ k: 2, member: null }); // another company's member is unknown here
    await rules.transaction((m) => rules.save(m, { ...r, title: 'edited' }));
    const [edited] = await rows();
    expect(edited.stamp).not.toEqual(first.stamp);

    await ds.transaction((db) => new AlertMemberStatesRepository().saveStates(db, [{ companyId: a, memberId: w, evaluatedTs: 9, state: null }]));
    const [withState] = await ds.transaction((db) => read.lookup(db, [{ companyId: a, memberId: w }], true));
    expect(withState.stored).toEqual({ evaluatedTs: 9, state: {} });
    expect(withState.company).toMatchObject({ id: a, timezone: 'UTC' });
  });

  it('names members as events do, only the company members', async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const m = await createIntMember(ds, a, { name: 'Ana', username: `ana-${newId().toLowerCase()}@int.test` });
    const other = await createIntMember(ds, b);
    const named = await read.eventMembers(ds, a, [m, other]);
    expect(named).toEqual([{ uid: m, name: 'Ana', username: expect.stringMatching(/^ana-/) }]);
  });
});
