import { alertFiringView, alertRuleView } from './alert-rule-view';
import type { AlertRule } from './entities/alert-rule.entity';

const rule = (over: Partial<AlertRule>): AlertRule => ({
  id: 'R1',
  companyId: 'C1',
  title: 't',
  description: 'd',
  action: 'checks_in',
  members: ['M1'],
  teams: [2],
  placeId: null,
  zoneId: null,
  interval: null,
  threshold: null,
  window: null,
  active: true,
  createdAt: 1000,
  updatedAt: null,
  deletedAt: null,
  ...over,
});

describe('alertRuleView', () => {
  it('shows only the parameters set; tsSaved is tsCreated until edited', () => {
    expect(alertRuleView(rule({}))).toEqual({
      id: 'R1',
      title: 't',
      description: 'd',
      action: 'checks_in',
      actionCode: 1,
      type: 1,
      members: ['M1'],
      teams: [2],
      active: true,
      tsCreated: 1000,
      tsSaved: 1000,
    });
    expect(alertRuleView(rule({ action: 'idle', interval: 60000, updatedAt: 2000 }))).toMatchObject({
      interval: 60000,
      tsSaved: 2000,
      actionCode: 7,
      type: 2,
    });
  });

  it('battery_low always shows its threshold (15 by default); none shows type 0', () => {
    expect(alertRuleView(rule({ action: 'battery_low' })).threshold).toBe(15);
    expect(alertRuleView(rule({ action: 'battery_low', threshold: 30 })).threshold).toBe(30);
    expect(alertRuleView(rule({ action: 'none' }))).toMatchObject({ actionCode: 13, type: 0 });
  });
});

describe('alertFiringView', () => {
  it('numbers ts, leaves out null place/zone/checkType', () => {
    const base = { id: 'F', ruleId: 'R', action: 'checks_in' as const, memberId: 'M', message: 'm', ts: '5' };
    expect(alertFiringView({ ...base, placeId: null, zoneId: null, checkType: null })).toEqual({
      id: 'F',
      ruleId: 'R',
      action: 'checks_in',
      memberUid: 'M',
      message: 'm',
      ts: 5,
    });
    expect(alertFiringView({ ...base, placeId: 'P', zoneId: 'Z', checkType: 'IN' })).toMatchObject({
      placeUid: 'P',
      zoneId: 'Z',
      checkType: 'IN',
    });
  });
});
