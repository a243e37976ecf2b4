// @ts-check
'use strict';

/**
 * Sample items and output field labels, one per connector item shape (CONTRACTS "Connector /v1" and
 * "Wave 3: connector for automation platforms"). A hook delivers the very item the matching polling
 * route returns, so one sample serves a trigger's hook and its `performList`. The e2e spec checks
 * that every sample has exactly the keys of a real item.
 */

const MEMBER = { id: '01HZX4A7J0M5QK2V8N3R6T9W1Y', username: 'ana@example.com', name: 'Ana Novak' };

/** A connector job (`GET /v1/jobs`, hook data of `jobcreated` / `jobcompleted`). */
const job = {
  id: '01HZX4C2F8P6RB9T3K7M1V5N0Q',
  externalId: 'ORD-1042',
  title: 'Boiler service',
  address: 'Trg republike 1, 1000 Ljubljana',
  notes: 'Ring twice; the boiler is in the basement.',
  date: '2024-05-14',
  timeWindow: { start: '09:00', end: '11:30' },
  placeId: null,
  priority: 2,
  progress: 'scheduled',
  archived: false,
  createdAt: 1715670000000,
  updatedAt: 1715670000000,
  assignee: { ...MEMBER, email: 'ana@example.com' },
  contact: { name: 'Marko Kos', phone: '+386 1 234 5678', email: 'marko@example.com' },
};

/** @type {import('zapier-platform-core').PlainOutputField[]} */
const jobFields = [
  { key: 'id', label: 'Job ID', primary: true },
  { key: 'externalId', label: 'External ID' },
  { key: 'title', label: 'Title' },
  { key: 'address', label: 'Address' },
  { key: 'notes', label: 'Notes' },
  { key: 'date', label: 'Date (YYYY-MM-DD)' },
  { key: 'timeWindow__start', label: 'Time Window Start (HH:mm)' },
  { key: 'timeWindow__end', label: 'Time Window End (HH:mm)' },
  { key: 'placeId', label: 'Place ID' },
  { key: 'priority', label: 'Priority', type: 'integer' },
  { key: 'progress', label: 'Progress (scheduled, accepted, rejected, started, success, failed)' },
  { key: 'archived', label: 'Archived', type: 'boolean' },
  { key: 'createdAt', label: 'Created At (ms since 1970)', type: 'integer' },
  { key: 'updatedAt', label: 'Updated At (ms since 1970)', type: 'integer' },
  { key: 'assignee__id', label: 'Assignee ID' },
  { key: 'assignee__username', label: 'Assignee Username' },
  { key: 'assignee__email', label: 'Assignee Email' },
  { key: 'assignee__name', label: 'Assignee Name' },
  { key: 'contact__name', label: 'Contact Name' },
  { key: 'contact__phone', label: 'Contact Phone' },
  { key: 'contact__email', label: 'Contact Email' },
];

const PLACE_REF = { id: '01HZX4D9S3W7NA1C5E8G2J6L4P', name: 'Central depot', location: { lat: 46.0511, lng: 14.5051 } };

/** A check-in at a place (`GET /v1/checkins?kind=placecheckin|placecheckout`, hook data of those actions). */
const checkin = {
  id: '01HZX4F6H1K9MC4R7U2X5Z8B3D',
  kind: 'placecheckin',
  member: MEMBER,
  place: PLACE_REF,
  ts: 1715671800000,
  createdAt: 1715671805000,
};

/** @type {import('zapier-platform-core').PlainOutputField[]} */
const checkinFields = [
  { key: 'id', label: 'Check-in ID', primary: true },
  { key: 'kind', label: 'Kind (placecheckin or placecheckout)' },
  { key: 'member__id', label: 'Member ID' },
  { key: 'member__username', label: 'Member Username' },
  { key: 'member__name', label: 'Member Name' },
  { key: 'place__id', label: 'Place ID' },
  { key: 'place__name', label: 'Place Name' },
  { key: 'place__location__lat', label: 'Place Latitude', type: 'number' },
  { key: 'place__location__lng', label: 'Place Longitude', type: 'number' },
  { key: 'ts', label: 'Time of Entry or Exit (ms since 1970)', type: 'integer' },
  { key: 'createdAt', label: 'Recorded At (ms since 1970)', type: 'integer' },
];

/** A clock-in or clock-out (`GET /v1/clock-events`, hook data of `clockin` / `clockout`). */
const clockEvent = {
  id: '01HZX4G3J8N2QD6T9W4Y7A1C5F',
  kind: 'clockin',
  member: MEMBER,
  ts: 1715668200000,
  location: { lat: 46.0569, lng: 14.5058 },
  createdAt: 1715668201000,
};

/** @type {import('zapier-platform-core').PlainOutputField[]} */
const clockEventFields = [
  { key: 'id', label: 'Clock Event ID', primary: true },
  { key: 'kind', label: 'Kind (clockin or clockout)' },
  { key: 'member__id', label: 'Member ID' },
  { key: 'member__username', label: 'Member Username' },
  { key: 'member__name', label: 'Member Name' },
  { key: 'ts', label: 'Time (ms since 1970)', type: 'integer' },
  { key: 'location__lat', label: 'Latitude', type: 'number' },
  { key: 'location__lng', label: 'Longitude', type: 'number' },
  { key: 'createdAt', label: 'Recorded At (ms since 1970)', type: 'integer' },
];

/** An alert firing (`GET /v1/alert-firings`, hook data of `alerttriggered`); `place` / `zone` only when the rule names one. */
const alertFiring = {
  id: '01HZX4H0K5P9SF3V6X1Z4B8D2G',
  action: 'battery_low',
  rule: { id: '01HZX4J7M2R6TH0W3Y8A5C9E1J', title: 'Phone battery low' },
  member: MEMBER,
  message: "Ana Novak's battery is at 14 % (10:42)",
  ts: 1715676120000,
  createdAt: 1715676121000,
};

/** @type {import('zapier-platform-core').PlainOutputField[]} */
const alertFiringFields = [
  { key: 'id', label: 'Firing ID', primary: true },
  { key: 'action', label: 'Alert Kind (e.g. battery_low, checks_in, enters_zone)' },
  { key: 'rule__id', label: 'Rule ID' },
  { key: 'rule__title', label: 'Rule Title' },
  { key: 'member__id', label: 'Member ID' },
  { key: 'member__username', label: 'Member Username' },
  { key: 'member__name', label: 'Member Name' },
  { key: 'message', label: 'Message' },
  { key: 'ts', label: 'Time (ms since 1970)', type: 'integer' },
  { key: 'createdAt', label: 'Recorded At (ms since 1970)', type: 'integer' },
];

/** A member (`GET /v1/members`). */
const member = { ...MEMBER, email: 'ana@example.com' };

/** @type {import('zapier-platform-core').PlainOutputField[]} */
const memberFields = [
  { key: 'id', label: 'Member ID', primary: true },
  { key: 'username', label: 'Username' },
  { key: 'email', label: 'Email' },
  { key: 'name', label: 'Name' },
];

/** A connector place (`GET|POST /v1/places`). */
const place = {
  id: PLACE_REF.id,
  name: PLACE_REF.name,
  address: 'Trg republike 1',
  city: 'Ljubljana',
  state: '',
  postalCode: '1000',
  countryCode: 'SI',
  phone: '+386 1 234 5678',
  email: 'depot@example.com',
  location: PLACE_REF.location,
  radius: 100,
  teams: [],
  createdAt: 1715660000000,
  updatedAt: 1715660000000,
};

/** @type {import('zapier-platform-core').PlainOutputField[]} */
const placeFields = [
  { key: 'id', label: 'Place ID', primary: true },
  { key: 'name', label: 'Name' },
  { key: 'address', label: 'Address' },
  { key: 'city', label: 'City' },
  { key: 'state', label: 'State' },
  { key: 'postalCode', label: 'Postal Code' },
  { key: 'countryCode', label: 'Country Code' },
  { key: 'phone', label: 'Phone' },
  { key: 'email', label: 'Email' },
  { key: 'location__lat', label: 'Latitude', type: 'number' },
  { key: 'location__lng', label: 'Longitude', type: 'number' },
  { key: 'radius', label: 'Radius (m; 0 = the company default)', type: 'integer' },
  { key: 'createdAt', label: 'Created At (ms since 1970)', type: 'integer' },
  { key: 'updatedAt', label: 'Updated At (ms since 1970)', type: 'integer' },
];

module.exports = {
  samples: { job, checkin, clockEvent, alertFiring, member, place },
  outputFields: {
    job: jobFields,
    checkin: checkinFields,
    clockEvent: clockEventFields,
    alertFiring: alertFiringFields,
    member: memberFields,
    place: placeFields,
  },
};
