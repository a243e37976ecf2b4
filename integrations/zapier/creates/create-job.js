// @ts-check
'use strict';

const { defineCreate } = require('zapier-platform-core');
const { firstItem, v1 } = require('../lib/api');
const { jobBody, jobInputFields } = require('../lib/job-fields');
const { samples, outputFields } = require('../lib/samples');

/**
 * Create Job: `POST /v1/jobs` → the job (201; 200 when the external id matched a job, which was updated).
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle} bundle
 */
async function createJob(z, bundle) {
  return firstItem(await z.request({ method: 'POST', url: v1(z, bundle, '/jobs'), body: jobBody(bundle.inputData) }));
}

module.exports = defineCreate({
  key: 'create_job',
  noun: 'Job',
  display: {
    label: 'Create Job',
    description: 'Creates a job, or updates the job that already has the external id given.',
  },
  operation: {
    inputFields: jobInputFields({ titleRequired: true }),
    perform: createJob,
    sample: samples.job,
    outputFields: outputFields.job,
  },
});
