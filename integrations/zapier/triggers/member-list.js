// @ts-check
'use strict';

const { defineTrigger } = require('zapier-platform-core');
const { itemsOf, v1 } = require('../lib/api');
const { samples, outputFields } = require('../lib/samples');

/**
 * Hidden: the active members (`GET /v1/members`, at most 50), for the assignee dropdown.
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle} bundle
 */
async function members(z, bundle) {
  return itemsOf(await z.request({ url: v1(z, bundle, '/members'), params: { max: 50 } }));
}

module.exports = defineTrigger({
  key: 'member_list',
  noun: 'Member',
  display: { label: 'Members', description: 'Lists members for dropdowns.', hidden: true },
  operation: { type: 'polling', perform: members, sample: samples.member, outputFields: outputFields.member },
});
