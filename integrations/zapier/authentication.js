// @ts-check
'use strict';

const { DEFAULT_BASE_URL, v1 } = require('./lib/api');

/**
 * Checks the connection: `GET /v1/auth/whoami` with the key → `{member: {id, username, email, name,
 * role}, company: {id, name, username}}`, which Zapier keeps as the test result (the connection
 * label's `bundle.inputData`).
 * @param {import('zapier-platform-core').ZObject} z
 * @param {import('zapier-platform-core').Bundle} bundle
 */
async function whoami(z, bundle) {
  const response = await z.request({ url: v1(z, bundle, '/auth/whoami') });
  return response.data.data;
}

/**
 * The name Zapier shows for the connection: `ana@example.com (Acme Services)`.
 * @param {import('zapier-platform-core').ZObject} _z
 * @param {import('zapier-platform-core').Bundle<{member?: {username?: string}, company?: {name?: string}}>} bundle
 */
async function connectionLabel(_z, bundle) {
  const { member, company } = bundle.inputData;
  return `${(member && member.username) || 'unknown member'} (${(company && company.name) || 'unknown company'})`;
}

/**
 * API key authentication (Zapier's "custom" scheme): the key goes in the `API-Key` header of every
 * request (`addApiKey` in lib/api.js); the service's address is a field of the connection, since
 * every company runs its own Fieldwork.
 */
module.exports = {
  type: /** @type {const} */ ('custom'),
  fields: [
    {
      key: 'baseUrl',
      label: 'Fieldwork URL',
      type: /** @type {const} */ ('string'),
      required: true,
      default: DEFAULT_BASE_URL,
      isNoSecret: true,
      helpText:
        'The address of your Fieldwork service as Zapier reaches it, e.g. `https://fieldwork.example.com` (a `/v1` at the end is fine).',
    },
    {
      key: 'apiKey',
      label: 'API Key',
      type: /** @type {const} */ ('password'),
      required: true,
      helpText:
        "A Fieldwork API key (`fwk_…`). The Zap acts as the member the key belongs to: use an administrator's key for the instant triggers (subscribing to events is for administrators).",
    },
  ],
  test: whoami,
  connectionLabel,
};
