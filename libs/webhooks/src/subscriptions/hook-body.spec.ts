import { alertFiringItemForEvent } from '@app/alerts';
import { JobView, toConnectorJob } from '@app/jobs';
import { checkinItemForEvent, clockEventItemForEvent } from '@app/locations';
import { hookBody } from './hook-body';
import { hookItem, pollingItem } from './hook-item';
import { SUBSCRIBABLE_ACTIONS, SUBSCRIBABLE_EVENTS } from './subscription-events';

const job = {
  id: 'J1',
  uidSecondary: 'ext-1',
  destinationName: 'Fix the boiler',
  destinationText: 'Main St 1',
  textDispatcher: 'ring twice',
  day: 20260105,
  windowStart: 800,
  windowEnd: 1230,
  placeUid: '',
  priority: 2,
  progress: 'accepted',
  status: 'active',
  createdAt: 1_700_000_000_000,
  tsSaved: 1_700_000_100_000,
  receiverUid: 'W1',
  assigneeUsername: 'ana@example.test',
  workerEmail: 'ana@example.test',
  workerName: 'Ana',
  contactName: 'Bo',
  contactPhone: '+386 1',
  contactEmail: 'bo@example.test',
} as unknown as JobView;

describe('REST hook body', () => {
  it('is {id, action, ts, data} with the connector job for job events, key actions included', () => {
    for (const action of ['jobcreated', 'jobupdated', 'jobcompleted', 'jobarchived', 'jobdeleted', 'jobcheckin', 'jobcheckout']) {
      const body = JSON.parse(hookBody({ eventId: 'msg_1', action, ts: 1_700_000_200_000, payload: JSON.stringify([job]) }));
      expect(body).toEqual({ id: 'msg_1', action, ts: 1_700_000_200_000, data: toConnectorJob(job) });
    }
    expect(toConnectorJob(job)).toMatchObject({
      id: 'J1',
      externalId: 'ext-1',
      title: 'Fix the boiler',
      date: '2026-01-05',
      timeWindow: { start: '08:00', end: '12:30' },
    });
  });

  it('keys its fields in the order id, action, ts, data (the exact bytes are signed)', () => {
    const text = hookBody({ eventId: 'msg_2', action: 'jobcreated', ts: 5, payload: JSON.stringify([job]) });
    expect(text.startsWith('{"id":"msg_2","action":"jobcreated","ts":5,"data":{')).toBe(true);
  });

  it('sends check-in, clock and alert events as the polling routes list them: the event id, createdAt its stamp', () => {
    const who = { uid: 'M1', name: 'Ana', username: 'ana' };
    const place = { uid: 'P1', name: 'Depot', location: { lat: 46, lng: 14 }, radius: 50 };
    const checkin = { id: 'msg_3', action: 'placecheckin', ts: 20, stampedAt: 25, data: { place, who, ts: 10 } };
    const item = hookItem(checkin);
    expect(item).toEqual(checkinItemForEvent({ id: 'msg_3', action: 'placecheckin', data: checkin.data, createdAt: 25 } as never));
    expect(item).toMatchObject({
      id: 'msg_3',
      kind: 'placecheckin',
      member: { id: 'M1', username: 'ana', name: 'Ana' },
      ts: 10,
      createdAt: 25,
    });
    expect((item as { place: { id: string } }).place.id).toBe('P1');
    // not stamped yet (an event committed between the drain's stamping and its claim): its creation time
    expect(hookItem({ ...checkin, stampedAt: null })).toMatchObject({ id: 'msg_3', createdAt: 20 });
    const clock = {
      id: 'msg_4',
      action: 'clockout',
      ts: 20,
      stampedAt: 21,
      data: { who, tracking: false, ts: 10 },
    };
    expect(hookItem(clock)).toEqual(clockEventItemForEvent({ id: 'msg_4', action: 'clockout', data: clock.data, createdAt: 21 } as never));
    expect(hookItem(clock)).toMatchObject({ id: 'msg_4', kind: 'clockout', ts: 10, createdAt: 21 });
    const alert = { id: 'R1', title: 'Low battery', message: 'Ana: battery 10 %', action: 'battery_low', config: {} };
    const firing = {
      id: 'msg_5',
      action: 'alerttriggered',
      ts: 30,
      stampedAt: 31,
      data: { alert, member: who, ts: 29, zone: { id: 'Z', name: 'Yard' } },
    };
    expect(hookItem(firing)).toEqual(
      alertFiringItemForEvent({ id: 'msg_5', action: 'alerttriggered', data: firing.data, createdAt: 31 } as never),
    );
    expect(hookItem(firing)).toMatchObject({ id: 'msg_5', action: 'battery_low', rule: { id: 'R1', title: 'Low battery' }, createdAt: 31 });
  });

  it('sends a payload it cannot map as stored, and never throws', () => {
    expect(pollingItem({ id: 'm', action: 'somethingnew', ts: 1, stampedAt: null, data: { a: 1 } })).toBeUndefined();
    expect(hookItem({ id: 'm', action: 'somethingnew', ts: 1, stampedAt: null, data: { a: 1 } })).toEqual({ a: 1 });
    expect(hookItem({ id: 'm', action: 'jobcreated', ts: 1, stampedAt: null, data: 'not an array' })).toBe('not an array');
    expect(JSON.parse(hookBody({ eventId: 'm', action: 'clockin', ts: 1, payload: 'not json' })).data).toBe('not json');
  });

  it('subscribes to the twelve actions and the nine keys, never the stream-only notification', () => {
    expect(SUBSCRIBABLE_ACTIONS).toHaveLength(12);
    expect(SUBSCRIBABLE_EVENTS).toHaveLength(21);
    expect(SUBSCRIBABLE_EVENTS).toContain('job_checked');
    expect(SUBSCRIBABLE_EVENTS).not.toContain('notification');
  });
});
