import type { StampedEventOf } from '@app/core';
import { PlaceView, toConnectorPlace } from '@app/places';
import { alertFiringItemForEvent } from './alert-firing-items';

const alert = {
  id: 'R1',
  config: { zoneId: 'Z1' },
  companyUid: 'C1',
  title: 'Left the depot',
  description: 'd',
  message: 'Luka Novak left zone North depot at 14:05',
  action: 'leaves_zone' as const,
  actionCode: 9,
  type: 1,
  tsCreated: 1,
};
const member = { uid: 'W1', username: 'luka', name: 'Luka Novak' };

describe('alert firing items (GET /v1/alert-firings)', () => {
  it('maps an alerttriggered event: its id, the action, the rule, member, zone, message, ts, stamp', () => {
    const event: StampedEventOf<'alerttriggered'> = {
      id: 'msg_A',
      action: 'alerttriggered',
      data: { alert, member, zone: { id: 'Z1', name: 'North depot' }, ts: 1000 },
      createdAt: 2000,
    };
    expect(alertFiringItemForEvent(event)).toEqual({
      id: 'msg_A',
      action: 'leaves_zone',
      rule: { id: 'R1', title: 'Left the depot' },
      member: { id: 'W1', username: 'luka', name: 'Luka Novak' },
      zone: { id: 'Z1', name: 'North depot' },
      message: 'Luka Novak left zone North depot at 14:05',
      ts: 1000,
      createdAt: 2000,
    });
  });

  it('a place rule carries the place as /v1/places answers it (as check-in items do); no zone key without a zone', () => {
    const place = {
      uid: 'P1',
      name: 'Depot',
      address: '',
      city: '',
      state: '',
      postalcode: '',
      country_code: '',
      phone: '',
      email: '',
    } as PlaceView;
    const full = {
      ...place,
      location: null,
      radius: 0,
      teams: [],
      color: '',
      linkedForms: '',
      creator: '',
      data: [],
      tsCreated: 0,
      tsSaved: 0,
    };
    const item = alertFiringItemForEvent({
      id: 'msg_B',
      action: 'alerttriggered',
      data: { alert: { ...alert, action: 'checks_in' }, member, place: full, checkType: 'IN', ts: 5 },
      createdAt: 6,
    });
    expect(item.place).toEqual(toConnectorPlace(full));
    expect('zone' in item).toBe(false);
    expect(item.action).toBe('checks_in');
  });

  it('an event written before payloads carried ts gives its stamp as ts', () => {
    const old = {
      id: 'msg_C',
      action: 'alerttriggered',
      data: { alert, member },
      createdAt: 77,
    } as unknown as StampedEventOf<'alerttriggered'>;
    expect(alertFiringItemForEvent(old).ts).toBe(77);
  });
});
