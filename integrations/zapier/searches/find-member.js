// @ts-check
'use strict';

const { defineSearch } = require('zapier-platform-core');
const { itemsOf, v1 } = require('../lib/api');
const { samples, outputFields } = require('../lib/samples');

/**
 * Find Member: `GET /v1/members?query=…` → active members whose name, username or e-mail contains
 * the text (any case), or whose id it is, in Fieldwork's order (at most 50).
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle<{query: string}>} bundle
 */
async function findMember(z, bundle) {
  return itemsOf(await z.request({ url: v1(z, bundle, '/members'), params: { query: bundle.inputData.query, max: 50 } }));
}

module.exports = defineSearch({
  key: 'find_member',
  noun: 'Member',
  display: {
    label: 'Find Member',
    description: 'Finds an active member by name, username, e-mail (or part of one) or id.',
  },
  operation: {
    inputFields: [{ key: 'query', label: 'Name, Username, Email or ID', required: true }],
    perform: findMember,
    sample: samples.member,
    outputFields: outputFields.member,
  },
});
