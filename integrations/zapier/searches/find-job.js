// @ts-check
'use strict';

const { defineSearch } = require('zapier-platform-core');
const { itemsOf, v1 } = require('../lib/api');

/**
 * A boolean field's value as the connector's query string takes it (`true` / `false`): Zapier hands
 * booleans over as booleans or as the strings "true" / "false" ("yes" / "no" typed in by hand).
 * @param {unknown} value
 */
const isTrue = (value) => (value === true || /^(true|yes|1)$/i.test(String(value)) ? 'true' : 'false');
const { samples, outputFields } = require('../lib/samples');

/**
 * Find Job: `GET /v1/jobs?externalId=…` → the job with that external id, or none.
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle<{externalId: string, includeArchived?: boolean | string}>} bundle
 */
async function findJob(z, bundle) {
  const params = { externalId: bundle.inputData.externalId, includeArchived: isTrue(bundle.inputData.includeArchived) };
  return itemsOf(await z.request({ url: v1(z, bundle, '/jobs'), params }));
}

module.exports = defineSearch({
  key: 'find_job',
  noun: 'Job',
  display: {
    label: 'Find Job',
    description: 'Finds a job by its external id (your own id for it, e.g. an order number).',
  },
  operation: {
    inputFields: [
      { key: 'externalId', label: 'External ID', required: true },
      { key: 'includeArchived', label: 'Include Archived Jobs', type: 'boolean', required: false, default: 'false' },
    ],
    perform: findJob,
    sample: samples.job,
    outputFields: outputFields.job,
  },
});
