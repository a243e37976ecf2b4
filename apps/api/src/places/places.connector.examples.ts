import type { ConnectorPlace } from '@app/places';
import type { RouteExamplesDoc } from '../envelope/request-context';

/** Examples of `/v1/places` for the OpenAPI document (checked against the schemas by the openapi e2e spec). */
const ID = '01JD4Q2N7X8C5V3B9M6K1T0R2W';

const PLACE: ConnectorPlace = {
  id: ID,
  name: 'Central depot',
  address: 'Dunajska cesta 5',
  city: 'Ljubljana',
  state: '',
  postalCode: '1000',
  countryCode: 'SI',
  phone: '+386 1 234 5678',
  email: 'depot@example.com',
  location: { lat: 46.0569, lng: 14.5058 },
  radius: 80,
  teams: [1],
  createdAt: 1767225600000,
  updatedAt: 1767232800000,
};

export const LIST_PLACES: RouteExamplesDoc = {
  query: { query: 'depot', updatedSince: 1767225600000, limit: 100, skip: 0 },
  answer: { 'application/json': { data: { items: [PLACE] } } },
};

export const GET_PLACE: RouteExamplesDoc = {
  path: { id: ID },
  answer: { 'application/json': { data: { items: [PLACE] } } },
};

export const CREATE_PLACE: RouteExamplesDoc = {
  body: {
    name: 'Central depot',
    address: 'Dunajska cesta 5',
    city: 'Ljubljana',
    postalCode: '1000',
    countryCode: 'SI',
    phone: '+386 1 234 5678',
    email: 'depot@example.com',
    location: { lat: 46.0569, lng: 14.5058 },
    radius: 80,
    teams: [1],
  },
  answer: { 'application/json': { data: { items: [{ ...PLACE, updatedAt: PLACE.createdAt }] } } },
};

export const PATCH_PLACE: RouteExamplesDoc = {
  path: { id: ID },
  body: { radius: 120, phone: '+386 1 234 0000' },
  answer: { 'application/json': { data: { items: [{ ...PLACE, radius: 120, phone: '+386 1 234 0000' }] } } },
};

export const DELETE_PLACE: RouteExamplesDoc = {
  path: { id: ID },
  answer: { 'application/json': { data: { id: ID, deleted: true } } },
};
