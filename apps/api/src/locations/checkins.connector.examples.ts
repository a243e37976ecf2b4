import type { CheckinItem, ClockEventItem } from '@app/locations';
import type { RouteExamplesDoc } from '../envelope/request-context';

/** Examples of `/v1/checkins` and `/v1/clock-events` for the OpenAPI document (checked against the schemas by the openapi e2e spec). */
const MEMBER = { id: '01JH3P0M8W4D2S6K9T1V3X5Z7Q', username: 'luka@example.com', name: 'Luka Novak' };

const PLACE_CHECKIN: CheckinItem = {
  id: 'msg_01JH3Q7ZK0Y8R6V2N4T1C5B9XW',
  kind: 'placecheckin',
  member: MEMBER,
  place: {
    id: '01JH3P2C6E8G0J2L4N6Q8S0U2W',
    name: 'North depot',
    address: 'Tržaška cesta 12',
    city: 'Ljubljana',
    state: '',
    postalCode: '1000',
    countryCode: 'SI',
    phone: '',
    email: '',
    location: { lat: 46.0511, lng: 14.5051 },
    radius: 100,
    teams: [],
    createdAt: 1767225600000,
    updatedAt: 1767225600000,
  },
  ts: 1767258000000,
  createdAt: 1767258000412,
};

const JOB_CHECKOUT: CheckinItem = {
  id: 'msg_01JH3Q8A2C4E6G8J0L2N4Q6S8U',
  kind: 'jobcheckout',
  member: MEMBER,
  job: {
    id: '01JH3P5F7H9K1M3P5R7T9V1X3Z',
    externalId: 'ORD-1042',
    title: 'Boiler service',
    address: 'Celovška cesta 100, 1000 Ljubljana',
    notes: '',
    date: '2026-01-01',
    timeWindow: { start: '09:00', end: '11:00' },
    placeId: null,
    priority: 0,
    progress: 'started',
    archived: false,
    createdAt: 1767250000000,
    updatedAt: 1767261600000,
    assignee: { ...MEMBER, email: 'luka@example.com' },
    contact: { name: '', phone: '', email: '' },
  },
  ts: 1767261600000,
  createdAt: 1767261600327,
};

export const LIST_CHECKINS: RouteExamplesDoc = {
  query: { createdSince: 1767225600000, kind: 'placecheckin,jobcheckout', limit: 100 },
  answer: { 'application/json': { data: { items: [JOB_CHECKOUT, PLACE_CHECKIN] } } },
};

const CLOCK_IN: ClockEventItem = {
  id: 'msg_01JH3Q9B3D5F7H9K1M3P5R7T9V',
  kind: 'clockin',
  member: MEMBER,
  ts: 1767250800000,
  location: { lat: 46.0569, lng: 14.5058 },
  createdAt: 1767250801180,
};

export const LIST_CLOCK_EVENTS: RouteExamplesDoc = {
  query: { createdSince: 1767225600000, limit: 100 },
  answer: {
    'application/json': {
      data: {
        items: [
          { ...CLOCK_IN, id: 'msg_01JH3QF0A2C4E6G8J0L2N4Q6S8', kind: 'clockout', ts: 1767279600000, createdAt: 1767279600522 },
          CLOCK_IN,
        ],
      },
    },
  },
};
