import type { ConnectorPosition, ConnectorTrack } from '@app/locations';
import type { RouteExamplesDoc } from '../envelope/request-context';

/** Examples of `/v1/locations` and `/v1/tracks` for the OpenAPI document (checked against the schemas by the openapi e2e spec). */
const MEMBER_ID = '01JD4Q3A1B2C3D4E5F6G7H8J9K';

const POSITION: ConnectorPosition = {
  member: { id: MEMBER_ID, username: 'ana@example.com', name: 'Ana Novak' },
  lat: 46.0512,
  lng: 14.5061,
  ts: 1767258123000,
  accuracy: 8,
  speed: 11.4,
  heading: 92,
  battery: 76,
  state: 'moving',
  trackingOn: true,
};

const NEVER_LOCATED: ConnectorPosition = {
  member: { id: '01JD4Q3A1B2C3D4E5F6G7H8J9M', username: 'bor@example.com', name: 'Bor Kos' },
  lat: null,
  lng: null,
  ts: null,
  accuracy: null,
  speed: null,
  heading: null,
  battery: null,
  state: 'off',
  trackingOn: false,
};

export const LIST_POSITIONS: RouteExamplesDoc = {
  query: { team: 1 },
  answer: { 'application/json': { data: { items: [POSITION, NEVER_LOCATED] } } },
};

const TRACK: ConnectorTrack = {
  id: 4711,
  ownerUid: MEMBER_ID,
  kind: 'track_entry',
  labels: 0,
  startTs: 1767250800000,
  endTs: 1767252600000,
  startLat: 46.0569,
  startLng: 14.5058,
  endLat: 46.0512,
  endLng: 14.5061,
  distance: 2310.5,
  waypointCount: 181,
  speedAvg: 1.28,
  speedMax: 13.9,
  altitudeMin: 289,
  altitudeMax: 301,
  altitudeGain: 14,
  altitudeLoss: 12,
  shortEncoded: 'snbxGgdpwAnPrDbQoF',
  latMin: 46.0512,
  latMax: 46.0569,
  lngMin: 14.5049,
  lngMax: 14.5061,
  shareUrl: 'https://fieldwork.example.com/share/tracks/5f1d0c9a7e3b4a2d8c6e1f0b9a7d3c21',
};

export const LIST_TRACKS: RouteExamplesDoc = {
  query: { memberId: MEMBER_ID, from: 1767225600000, until: 1767312000000 },
  answer: { 'application/json': { data: { items: [TRACK] } } },
};
