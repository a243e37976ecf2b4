// @ts-check
'use strict';

const { defineTrigger } = require('zapier-platform-core');
const { itemsOf, pageSize, v1 } = require('../lib/api');
const { hookOperation } = require('../lib/hook-trigger');
const { samples, outputFields } = require('../lib/samples');

/**
 * Recent alert firings: `GET /v1/alert-firings`, newest first.
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle} bundle
 */
async function recentFirings(z, bundle) {
  return itemsOf(await z.request({ url: v1(z, bundle, '/alert-firings'), params: { createdSince: 0, limit: pageSize(bundle) } }));
}

module.exports = defineTrigger({
  key: 'alert_fired',
  noun: 'Alert',
  display: {
    label: 'Alert Fired',
    description: "Triggers when one of the company's alert rules fires (low battery, entering a zone, no check-in by a deadline…).",
  },
  operation: hookOperation({
    event: () => 'alerttriggered',
    list: recentFirings,
    sample: samples.alertFiring,
    outputFields: outputFields.alertFiring,
  }),
});
