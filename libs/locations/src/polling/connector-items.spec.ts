import type { StampedEventOf } from '@app/core';
import { JobView, toConnectorJob } from '@app/jobs';
import { PlaceView, toConnectorPlace } from '@app/places';
import { checkinItemForEvent, clockEventItemForEvent } from './connector-items';

const place: PlaceView = {
  uid: 'P1',
  name: 'North depot',
  address: 'Tržaška 12',
  city: 'Ljubljana',
  state: '',
  postalcode: '1000',
  country_code: 'SI',
  phone: '+386 1',
  email: 'depot@x.test',
  location: { lat: 46.05, lng: 14.5 },
  radius: 100,
  color: '#ff0000',
  linkedForms: '',
  creator: 'Ana',
  data: [{ gate: 'B' }],
  teams: [1, 2],
  tsCreated: 1,
  tsSaved: 2,
};
const who = { uid: 'W1', username: 'luka', name: 'Luka Novak' };

/** The fields of a job view the items read (the rest of the view is the jobs lib's, mapped by toConnectorJob). */
const jobView = (over: Partial<JobView> = {}): JobView =>
  ({
    id: 'J1',
    uidSecondary: 'crm-1',
    destinationName: 'Boiler',
    destinationText: 'Main St 1',
    textDispatcher: '',
    day: 20261123,
    windowStart: 900,
    windowEnd: 1100,
    placeUid: '',
    priority: 0,
    progress: 'started',
    createdAt: 10,
    tsSaved: 20,
    receiverUid: 'W1',
    worker: 'luka',
    assigneeUsername: 'luka',
    workerName: 'Luka Novak',
    workerEmail: 'luka@x.test',
    contactName: '',
    contactPhone: '',
    contactEmail: '',
    tsCheckIn: 1000,
    tsCheckOut: 2000,
    ...over,
  }) as JobView;

describe('check-in items (GET /v1/checkins)', () => {
  it('a place check: the event id, the member and the place as /v1/places answers them, ts from the payload, createdAt the stamp', () => {
    const event: StampedEventOf<'placecheckin'> = { id: 'msg_A', action: 'placecheckin', data: { place, who, ts: 1234 }, createdAt: 5678 };
    expect(checkinItemForEvent(event)).toEqual({
      id: 'msg_A',
      kind: 'placecheckin',
      member: { id: 'W1', username: 'luka', name: 'Luka Novak' },
      place: {
        id: 'P1',
        name: 'North depot',
        address: 'Tržaška 12',
        city: 'Ljubljana',
        state: '',
        postalCode: '1000',
        countryCode: 'SI',
        phone: '+386 1',
        email: 'depot@x.test',
        location: { lat: 46.05, lng: 14.5 },
        radius: 100,
        teams: [1, 2],
        createdAt: 1,
        updatedAt: 2,
      },
      ts: 1234,
      createdAt: 5678,
    });
    const out = checkinItemForEvent({
      id: 'msg_B',
      action: 'placecheckout',
      data: { place: { ...place, location: null }, who, ts: 9 },
      createdAt: 10,
    });
    expect(out).toMatchObject({ id: 'msg_B', kind: 'placecheckout', ts: 9, place: { location: null } });
    expect(out).toMatchObject({ place: toConnectorPlace({ ...place, location: null }) });
  });

  it('a job check: its own id (never the job’s), the assignee as member, the connector job, ts = tsCheckIn / tsCheckOut', () => {
    const view = jobView();
    const checkin = checkinItemForEvent({ id: 'msg_C', action: 'jobcheckin', data: [view], createdAt: 3000 });
    const checkout = checkinItemForEvent({ id: 'msg_D', action: 'jobcheckout', data: [view], createdAt: 3001 });
    expect(checkin).toEqual({
      id: 'msg_C',
      kind: 'jobcheckin',
      member: { id: 'W1', username: 'luka', name: 'Luka Novak' },
      job: toConnectorJob(view),
      ts: 1000,
      createdAt: 3000,
    });
    expect(checkout).toMatchObject({ id: 'msg_D', kind: 'jobcheckout', ts: 2000, job: { id: 'J1', externalId: 'crm-1' } });
    expect(checkin.id).not.toBe(checkout.id);
    expect(checkin.id).not.toBe(view.id);
  });

  it('a job check of an unassigned job has no member', () => {
    const view = jobView({ receiverUid: '', worker: '', assigneeUsername: '', workerName: '' });
    expect(checkinItemForEvent({ id: 'msg_E', action: 'jobcheckin', data: [view], createdAt: 1 })).toMatchObject({ member: null });
  });
});

describe('clock items (GET /v1/clock-events)', () => {
  it('clockin / clockout with the location, or null without one', () => {
    expect(
      clockEventItemForEvent({
        id: 'msg_F',
        action: 'clockin',
        data: { who, tracking: true, ts: 100, location: { lat: 1, lng: 2 } },
        createdAt: 200,
      }),
    ).toEqual({
      id: 'msg_F',
      kind: 'clockin',
      member: { id: 'W1', username: 'luka', name: 'Luka Novak' },
      ts: 100,
      location: { lat: 1, lng: 2 },
      createdAt: 200,
    });
    expect(clockEventItemForEvent({ id: 'msg_G', action: 'clockout', data: { who, tracking: false, ts: 300 }, createdAt: 400 })).toEqual({
      id: 'msg_G',
      kind: 'clockout',
      member: { id: 'W1', username: 'luka', name: 'Luka Novak' },
      ts: 300,
      location: null,
      createdAt: 400,
    });
  });
});
