import { mayCallAction } from '@app/core';
import { WEBHOOK_ACTION_ROLES } from './webhook-policy';

describe('WEBHOOK_ACTION_ROLES (CONTRACTS.md role table)', () => {
  type Row = [keyof typeof WEBHOOK_ACTION_ROLES, administrator: boolean, operator: boolean, worker: boolean];
  const table: Row[] = [
    ['getwebhooks', true, true, false],
    ['setwebhooks', true, false, false],
    ['rotatewebhooksecret', true, false, false],
    ['getwebhookdeliveries', true, false, false],
    ['replaywebhookdelivery', true, false, false],
  ];

  it.each(table)('%s: administrator %p, operator %p, worker %p', (action, a, o, w) => {
    expect(mayCallAction(WEBHOOK_ACTION_ROLES, 'administrator', action)).toBe(a);
    expect(mayCallAction(WEBHOOK_ACTION_ROLES, 'operator', action)).toBe(o);
    expect(mayCallAction(WEBHOOK_ACTION_ROLES, 'worker', action)).toBe(w);
  });

  it('covers exactly the actions of the slice', () => {
    expect(table.map(([action]) => action).sort()).toEqual(Object.keys(WEBHOOK_ACTION_ROLES).sort());
  });
});
