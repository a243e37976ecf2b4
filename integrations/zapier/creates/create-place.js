// @ts-check
'use strict';

const { defineCreate } = require('zapier-platform-core');
const { firstItem, present, v1 } = require('../lib/api');
const { samples, outputFields } = require('../lib/samples');

/**
 * The connector body of a place: the fields filled in, `latitude` + `longitude` as `location`.
 * @param {import('zapier-platform-core').ZObject} z
 * @param {Record<string, any>} input
 * @throws {Error} (z.errors.Error) when only one of latitude and longitude is given
 */
function placeBody(z, input) {
  const body = present({
    name: input.name,
    address: input.address,
    city: input.city,
    state: input.state,
    postalCode: input.postalCode,
    countryCode: input.countryCode,
    phone: input.phone,
    email: input.email,
    radius: input.radius,
  });
  const hasLat = input.latitude !== undefined && input.latitude !== null && input.latitude !== '';
  const hasLng = input.longitude !== undefined && input.longitude !== null && input.longitude !== '';
  if (hasLat !== hasLng) throw new z.errors.Error('Latitude and Longitude go together: fill in both or neither', 'invalid_request', 400);
  if (hasLat) body.location = { lat: Number(input.latitude), lng: Number(input.longitude) };
  return body;
}

/**
 * Create Place: `POST /v1/places` → the place.
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle} bundle
 */
async function createPlace(z, bundle) {
  return firstItem(await z.request({ method: 'POST', url: v1(z, bundle, '/places'), body: placeBody(z, bundle.inputData) }));
}

module.exports = defineCreate({
  key: 'create_place',
  noun: 'Place',
  display: {
    label: 'Create Place',
    description: 'Creates a place (a customer site, a depot…) that jobs, check-ins and reports can refer to.',
  },
  operation: {
    inputFields: [
      { key: 'name', label: 'Name', required: true },
      { key: 'address', label: 'Street Address', required: false },
      { key: 'city', label: 'City', required: false },
      { key: 'state', label: 'State', required: false },
      { key: 'postalCode', label: 'Postal Code', required: false },
      { key: 'countryCode', label: 'Country Code', required: false, placeholder: 'SI', helpText: 'Two letters (ISO 3166-1 alpha-2).' },
      { key: 'phone', label: 'Phone', required: false },
      { key: 'email', label: 'Email', required: false },
      {
        key: 'latitude',
        label: 'Latitude',
        type: 'number',
        required: false,
        helpText: 'Degrees, -90 to 90. Required (with Longitude) unless your Fieldwork has a geocoder configured.',
      },
      { key: 'longitude', label: 'Longitude', type: 'number', required: false, helpText: 'Degrees, -180 to 180.' },
      {
        key: 'radius',
        label: 'Radius (m)',
        type: 'integer',
        required: false,
        helpText: 'How close a member must be to count as at the place. Empty or 0: the company default.',
      },
    ],
    perform: createPlace,
    sample: samples.place,
    outputFields: outputFields.place,
  },
});
