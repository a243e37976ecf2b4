// @ts-check
'use strict';

const { defineTrigger } = require('zapier-platform-core');
const { itemsOf, pageSize, PAGE_MAX, v1 } = require('../lib/api');
const { hookOperation } = require('../lib/hook-trigger');
const { samples, outputFields } = require('../lib/samples');

/** The `kind` choice: a clock event is the phone's tracking switched on (in) or off (out). */
const KINDS = { clockin: 'Clock in (tracking switched on)', clockout: 'Clock out (tracking switched off)' };

/**
 * Recent clock events: `GET /v1/clock-events` (it has no kind filter: a full page is read and the
 * kind asked for kept).
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle<{kind?: string}>} bundle
 */
async function recentClockEvents(z, bundle) {
  const kind = bundle.inputData.kind;
  const items = itemsOf(await z.request({ url: v1(z, bundle, '/clock-events'), params: { createdSince: 0, limit: PAGE_MAX } }));
  return items.filter((e) => !kind || e.kind === kind).slice(0, pageSize(bundle));
}

module.exports = defineTrigger({
  key: 'clock_event',
  noun: 'Clock Event',
  display: {
    label: 'Clock In or Clock Out',
    description: 'Triggers when a member clocks in or out (switches location tracking on or off in the phone app).',
  },
  operation: hookOperation({
    // `clock_in_out` is the webhook key of both actions
    event: (bundle) => /** @type {string} */ (bundle.inputData.kind) || 'clock_in_out',
    inputFields: [
      {
        key: 'kind',
        label: 'Kind',
        required: false,
        choices: KINDS,
        helpText: 'Only clock-ins or only clock-outs. Leave empty for both.',
      },
    ],
    accepts: (item, bundle) => (bundle.inputData.kind ? item.kind === bundle.inputData.kind : Object.hasOwn(KINDS, item.kind)),
    list: recentClockEvents,
    sample: samples.clockEvent,
    outputFields: outputFields.clockEvent,
  }),
});
