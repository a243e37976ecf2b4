import { ALERT_ACTION_NAMES, ALERT_ACTIONS } from './alert-actions';
import { actionParamIssue, AlertRuleParams, endsAfterStart, isHhmm, mergeParams, takes, withDefaults } from './alert-rule-rules';

const NONE: AlertRuleParams = { placeId: null, zoneId: null, interval: null, threshold: null, window: null };
const WINDOW = { days: [1, 2, 3], start: 800, end: 1700 };

describe('actionParamIssue (each action’s rules, ALERT_ACTIONS)', () => {
  it.each([
    ['enters_zone', { ...NONE }, 'data.zoneId', 'is required for enters_zone'],
    ['leaves_zone', { ...NONE }, 'data.zoneId', 'is required for leaves_zone'],
    ['idle', { ...NONE }, 'data.interval', 'is required for idle'],
    ['no_connection_to_device', { ...NONE }, 'data.interval', 'is required for no_connection_to_device'],
    ['no_check_in', { ...NONE }, 'data.window', 'is required for no_check_in (its end is the daily deadline)'],
    ['no_check_out', { ...NONE }, 'data.window', 'is required for no_check_out'],
    ['no_check_any', { ...NONE }, 'data.window', 'is required for no_check_any'],
  ] as const)('%s without its required parameter → %s', (action, params, field, rule) => {
    const issue = actionParamIssue(action, params);
    expect(issue?.field).toBe(field);
    expect(issue?.rule).toContain(rule);
  });

  it.each([
    ['idle', { placeId: 'P' }, 'data.placeUid'],
    ['battery_low', { placeId: 'P' }, 'data.placeUid'],
    ['checks_in', { zoneId: 'Z' }, 'data.zoneId'],
    ['checks_in', { interval: 60000 }, 'data.interval'],
    ['enters_zone', { zoneId: 'Z', interval: 60000 }, 'data.interval'],
    ['idle', { interval: 60000, threshold: 20 }, 'data.threshold'],
    ['none', { threshold: 20 }, 'data.threshold'],
  ] as const)('%s with %p → refused naming %s ("is not taken by")', (action, extra, field) => {
    const issue = actionParamIssue(action, { ...NONE, ...extra });
    expect(issue).toEqual({ field, rule: expect.stringMatching(new RegExp(`^is not taken by ${action} \\(only by `)) });
  });

  it('names the actions that do take the parameter', () => {
    expect(actionParamIssue('checks_in', { ...NONE, threshold: 5 })?.rule).toBe('is not taken by checks_in (only by battery_low)');
    expect(actionParamIssue('idle', { ...NONE, zoneId: 'Z', interval: 60000 })?.rule).toBe(
      'is not taken by idle (only by enters_zone, leaves_zone, enters_danger_zone)',
    );
  });

  it('accepts every action with exactly its required parameters, and the window on every action', () => {
    for (const action of ALERT_ACTION_NAMES) {
      const spec = ALERT_ACTIONS[action];
      const params: AlertRuleParams = {
        placeId: null,
        zoneId: spec.zone === 'required' ? 'Z' : null,
        interval: spec.interval === 'required' ? 60000 : null,
        threshold: spec.threshold ? 15 : null,
        window: spec.window === 'required' ? WINDOW : null,
      };
      expect({ action, issue: actionParamIssue(action, params) }).toEqual({ action, issue: null });
      expect({ action, issue: actionParamIssue(action, { ...params, window: WINDOW }) }).toEqual({ action, issue: null });
    }
  });

  it('optional place (check actions) and zone (enters_danger_zone) are accepted', () => {
    for (const a of ['checks_in', 'checks_out', 'checks_any'] as const) expect(actionParamIssue(a, { ...NONE, placeId: 'P' })).toBeNull();
    expect(actionParamIssue('no_check_any', { ...NONE, placeId: 'P', window: WINDOW })).toBeNull();
    expect(actionParamIssue('enters_danger_zone', { ...NONE, zoneId: 'Z' })).toBeNull();
  });

  it('takes: place only for the check actions, threshold only for battery_low', () => {
    expect(ALERT_ACTION_NAMES.filter((a) => takes(a, 'placeId'))).toEqual([
      'checks_in',
      'checks_out',
      'checks_any',
      'no_check_in',
      'no_check_out',
      'no_check_any',
    ]);
    expect(ALERT_ACTION_NAMES.filter((a) => takes(a, 'threshold'))).toEqual(['battery_low']);
  });
});

describe('mergeParams (editalert)', () => {
  const stored: AlertRuleParams = { ...NONE, interval: 600000, window: WINDOW };

  it('absent keeps, a value replaces, null clears', () => {
    expect(mergeParams(stored, 'idle', {}, 'idle')).toEqual(stored);
    expect(mergeParams(stored, 'idle', { interval: 120000 }, 'idle')).toEqual({ ...stored, interval: 120000 });
    expect(mergeParams(stored, 'idle', { window: null }, 'idle')).toEqual({ ...stored, window: null });
  });

  it('a changed action drops the stored parameters it does not take, keeps the ones sent (so they are refused by name)', () => {
    expect(mergeParams(stored, 'idle', {}, 'checks_in')).toEqual({ ...NONE, window: WINDOW });
    const sent = mergeParams(stored, 'idle', { interval: 120000 }, 'checks_in');
    expect(sent.interval).toBe(120000);
    expect(actionParamIssue('checks_in', sent)?.field).toBe('data.interval');
  });

  it('battery_low gets the default threshold; null resets it to the default', () => {
    expect(mergeParams(NONE, 'checks_in', {}, 'battery_low').threshold).toBe(15);
    expect(mergeParams({ ...NONE, threshold: 40 }, 'battery_low', { threshold: null }, 'battery_low').threshold).toBe(15);
    expect(mergeParams({ ...NONE, threshold: 40 }, 'battery_low', {}, 'idle').threshold).toBeNull();
    expect(withDefaults('idle', NONE)).toEqual(NONE);
  });
});

describe('HHMM and windows', () => {
  it.each([0, 1, 59, 100, 830, 1730, 2359])('%p is a time of day', (v) => expect(isHhmm(v)).toBe(true));
  it.each([-1, 60, 99, 1260, 2400, 2360, 8.5, '0800', null])('%p is not', (v) => expect(isHhmm(v)).toBe(false));

  it('start must be before end, the same day; non-HHMM values are left to their own rule', () => {
    expect(endsAfterStart(800, 1700)).toBe(true);
    expect(endsAfterStart(1700, 1700)).toBe(false);
    expect(endsAfterStart(2200, 600)).toBe(false);
    expect(endsAfterStart('x', 600)).toBe(true);
    expect(endsAfterStart(800, 2400)).toBe(true);
  });
});
