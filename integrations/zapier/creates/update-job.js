// @ts-check
'use strict';

const { defineCreate } = require('zapier-platform-core');
const { firstItem, v1 } = require('../lib/api');
const { jobBody, jobInputFields } = require('../lib/job-fields');
const { samples, outputFields } = require('../lib/samples');

/**
 * Update Job: `PATCH /v1/jobs/{id}` with the fields filled in → the job.
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle<{id: string}>} bundle
 */
async function updateJob(z, bundle) {
  const { id, ...fields } = bundle.inputData;
  return firstItem(await z.request({ method: 'PATCH', url: v1(z, bundle, `/jobs/${encodeURIComponent(id)}`), body: jobBody(fields) }));
}

module.exports = defineCreate({
  key: 'update_job',
  noun: 'Job',
  display: {
    label: 'Update Job',
    description: 'Changes the fields you fill in on an existing job; the others stay as they are.',
  },
  operation: {
    inputFields: [
      {
        key: 'id',
        label: 'Job ID',
        required: true,
        search: 'find_job.id',
        helpText: 'The Fieldwork id of the job (use Find Job to look it up by its external id).',
      },
      ...jobInputFields({ titleRequired: false }),
    ],
    perform: updateJob,
    sample: samples.job,
    outputFields: outputFields.job,
  },
});
