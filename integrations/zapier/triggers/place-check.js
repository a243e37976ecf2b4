// @ts-check
'use strict';

const { defineTrigger } = require('zapier-platform-core');
const { itemsOf, pageSize, v1 } = require('../lib/api');
const { hookOperation } = require('../lib/hook-trigger');
const { newestFirst } = require('../lib/lists');
const { samples, outputFields } = require('../lib/samples');

/** The `kind` choice: the check-in kinds of a place visit (geofencing decides them). */
const KINDS = { placecheckin: 'Check-in (arrives at the place)', placecheckout: 'Check-out (leaves the place)' };

/**
 * Recent place check-ins and/or check-outs: `GET /v1/checkins?kind=…`, one call per kind asked for,
 * merged newest first.
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle<{kind?: string}>} bundle
 */
async function recentChecks(z, bundle) {
  const kinds = bundle.inputData.kind ? [bundle.inputData.kind] : Object.keys(KINDS);
  const limit = pageSize(bundle);
  const pages = await Promise.all(
    kinds.map(async (kind) => itemsOf(await z.request({ url: v1(z, bundle, '/checkins'), params: { kind, createdSince: 0, limit } }))),
  );
  return newestFirst(pages.flat()).slice(0, limit);
}

module.exports = defineTrigger({
  key: 'place_check',
  noun: 'Check-in',
  display: {
    label: 'Check-in or Check-out at a Place',
    description: 'Triggers when a member arrives at or leaves one of your places (decided by geofencing).',
  },
  operation: hookOperation({
    // `place_checked` is the webhook key of both actions
    event: (bundle) => /** @type {string} */ (bundle.inputData.kind) || 'place_checked',
    inputFields: [
      {
        key: 'kind',
        label: 'Kind',
        required: false,
        choices: KINDS,
        helpText: 'Only arrivals or only departures. Leave empty for both.',
      },
    ],
    accepts: (item, bundle) => (bundle.inputData.kind ? item.kind === bundle.inputData.kind : Object.hasOwn(KINDS, item.kind)),
    list: recentChecks,
    sample: samples.checkin,
    outputFields: outputFields.checkin,
  }),
});
