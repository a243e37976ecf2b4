// @ts-check
'use strict';

const { defineTrigger } = require('zapier-platform-core');
const { itemsOf, pageSize, v1 } = require('../lib/api');
const { hookOperation } = require('../lib/hook-trigger');
const { samples, outputFields } = require('../lib/samples');

/** The `outcome` choice: a completed job's `progress`. */
const OUTCOMES = { success: 'Done successfully', failed: 'Done, failed' };

/**
 * Recently completed jobs: `GET /v1/jobs?progress=success,failed&updatedSince=0` (newest change first).
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle<{outcome?: string}>} bundle
 */
async function recentlyCompleted(z, bundle) {
  const progress = bundle.inputData.outcome || Object.keys(OUTCOMES).join(',');
  const response = await z.request({ url: v1(z, bundle, '/jobs'), params: { progress, updatedSince: 0, limit: pageSize(bundle) } });
  return itemsOf(response);
}

module.exports = defineTrigger({
  key: 'job_completed',
  noun: 'Job',
  display: {
    label: 'Job Completed',
    description: 'Triggers when a job is marked done, successfully or failed (optionally only one of the two).',
  },
  operation: hookOperation({
    event: () => 'jobcompleted',
    inputFields: [
      {
        key: 'outcome',
        label: 'Outcome',
        required: false,
        choices: OUTCOMES,
        helpText: 'Only jobs done with this outcome. Leave empty for both.',
      },
    ],
    accepts: (job, bundle) => !bundle.inputData.outcome || job.progress === bundle.inputData.outcome,
    list: recentlyCompleted,
    sample: { ...samples.job, progress: 'success' },
    outputFields: outputFields.job,
  }),
});
