// @ts-check
'use strict';

const { defineApp, version: platformVersion } = require('zapier-platform-core');
const authentication = require('./authentication');
const { addApiKey, explainErrors } = require('./lib/api');

const newJob = require('./triggers/new-job');
const jobCompleted = require('./triggers/job-completed');
const placeCheck = require('./triggers/place-check');
const clockEvent = require('./triggers/clock-event');
const alertFired = require('./triggers/alert-fired');
const memberList = require('./triggers/member-list');
const placeList = require('./triggers/place-list');
const createJob = require('./creates/create-job');
const updateJob = require('./creates/update-job');
const createPlace = require('./creates/create-place');
const findJob = require('./searches/find-job');
const findMember = require('./searches/find-member');

/**
 * Fieldwork for Zapier: the app definition `zapier push` uploads (README.md). Every call goes to
 * the connection's Fieldwork `/v1` with its API key.
 */
module.exports = defineApp({
  version: require('./package.json').version,
  platformVersion,
  // the app makes no HTTP call of its own beside z.request (which the platform logs anyway): no need
  // to patch Node's http modules, which would also reach the service's own code when tests run both
  // in one process
  flags: { skipHttpPatch: true },
  authentication,
  beforeRequest: [addApiKey],
  afterResponse: [explainErrors],
  triggers: {
    [newJob.key]: newJob,
    [jobCompleted.key]: jobCompleted,
    [placeCheck.key]: placeCheck,
    [clockEvent.key]: clockEvent,
    [alertFired.key]: alertFired,
    [memberList.key]: memberList,
    [placeList.key]: placeList,
  },
  creates: {
    [createJob.key]: createJob,
    [updateJob.key]: updateJob,
    [createPlace.key]: createPlace,
  },
  searches: {
    [findJob.key]: findJob,
    [findMember.key]: findMember,
  },
  searchOrCreates: {
    [findJob.key]: {
      key: findJob.key,
      display: {
        label: 'Find or Create Job',
        description: 'Finds a job by its external id, and creates it when there is none.',
      },
      search: findJob.key,
      create: createJob.key,
    },
  },
});
