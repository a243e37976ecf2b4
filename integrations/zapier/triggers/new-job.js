// @ts-check
'use strict';

const { defineTrigger } = require('zapier-platform-core');
const { itemsOf, pageSize, v1 } = require('../lib/api');
const { hookOperation } = require('../lib/hook-trigger');
const { samples, outputFields } = require('../lib/samples');

/**
 * New Job: instant (`jobcreated` REST hook); samples from `GET /v1/jobs`, newest first by creation.
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle} bundle
 */
async function recentJobs(z, bundle) {
  const response = await z.request({ url: v1(z, bundle, '/jobs'), params: { limit: pageSize(bundle) } });
  return itemsOf(response);
}

module.exports = defineTrigger({
  key: 'new_job',
  noun: 'Job',
  display: {
    label: 'New Job',
    description: 'Triggers when a job is created in Fieldwork (through the app, the API or another Zap).',
  },
  operation: hookOperation({
    event: () => 'jobcreated',
    list: recentJobs,
    sample: samples.job,
    outputFields: outputFields.job,
  }),
});
