// @ts-check
'use strict';

const { defineTrigger } = require('zapier-platform-core');
const { itemsOf, PAGE_MAX, v1 } = require('../lib/api');
const { samples, outputFields } = require('../lib/samples');

/**
 * Hidden: the places (`GET /v1/places`, a page), for the place dropdown.
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle} bundle
 */
async function places(z, bundle) {
  return itemsOf(await z.request({ url: v1(z, bundle, '/places'), params: { limit: PAGE_MAX } }));
}

module.exports = defineTrigger({
  key: 'place_list',
  noun: 'Place',
  display: { label: 'Places', description: 'Lists places for dropdowns.', hidden: true },
  operation: { type: 'polling', perform: places, sample: samples.place, outputFields: outputFields.place },
});
