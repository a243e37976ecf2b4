// @ts-check
'use strict';

/**
 * How the app talks to Fieldwork's connector API (`/v1`): the base URL of the connection, the
 * `API-Key` header on every request, and the connector's error bodies (`{error: {message}}`) turned
 * into errors a Zap's owner can act on.
 *
 * @typedef {import('zapier-platform-core').ZObject} ZObject
 * @typedef {import('zapier-platform-core').Bundle} Bundle
 * @typedef {import('zapier-platform-core').HttpResponse} HttpResponse
 */

/**
 * The connection form's default: the service's own default port on the machine that runs the app
 * (`zapier invoke` on a developer's machine). A connection made on zapier.com must name the
 * service's public https address instead.
 */
const DEFAULT_BASE_URL = 'http://localhost:3000';

/** Connector list routes answer at most this many items a page (CONTRACTS "Connector /v1"). */
const PAGE_MAX = 100;

/**
 * The service's base URL from the connection's `baseUrl` field: trimmed, without trailing slashes
 * and without a trailing `/v1` (people paste the API's address either way).
 * @param {ZObject} z
 * @param {Bundle} bundle
 * @returns {string} e.g. `https://fieldwork.example.com`
 * @throws {Error} (z.errors.Error) when the field is not an http(s) URL
 */
function baseUrl(z, bundle) {
  const raw = String((bundle.authData && bundle.authData.baseUrl) || DEFAULT_BASE_URL).trim();
  const cleaned = raw.replace(/\/+$/, '').replace(/\/v1$/, '');
  /** @type {URL} */
  let url;
  try {
    url = new URL(cleaned);
  } catch {
    throw new z.errors.Error(
      `Fieldwork URL must be an http(s) URL such as https://fieldwork.example.com (got "${raw}")`,
      'invalid_base_url',
      400,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new z.errors.Error(`Fieldwork URL must start with https:// or http:// (got "${raw}")`, 'invalid_base_url', 400);
  }
  return cleaned;
}

/**
 * The full URL of a connector route.
 * @param {ZObject} z
 * @param {Bundle} bundle
 * @param {string} path starting with `/`, e.g. `/jobs/01J…` (ids are URL-encoded by the caller)
 */
function v1(z, bundle, path) {
  return `${baseUrl(z, bundle)}/v1${path}`;
}

/**
 * `beforeRequest`: the connection's key in the `API-Key` header (the connector's header style) and
 * JSON answers asked for.
 * @type {import('zapier-platform-core').BeforeRequestMiddleware}
 */
function addApiKey(request, _z, bundle) {
  request.headers = request.headers || {};
  if (bundle.authData && bundle.authData.apiKey) request.headers['API-Key'] = bundle.authData.apiKey;
  request.headers.Accept = 'application/json';
  return request;
}

/**
 * `afterResponse`: a 4xx/5xx from the connector becomes a `z.errors.Error` whose message is the
 * connector's own sentence (it names the field and the rule), prefixed by what to do about it for a
 * refused key. Requests sent with `skipThrowForStatus` look at the status themselves. 429 never gets
 * here: the platform turns it into a ThrottledError (retried after `Retry-After`) first.
 * @type {import('zapier-platform-core').AfterResponseMiddleware}
 */
function explainErrors(response, z) {
  if (response.status < 400 || response.skipThrowForStatus) return response;
  throw connectorError(z, response);
}

/**
 * The error a connector answer stands for.
 * @param {ZObject} z
 * @param {HttpResponse} response a 4xx/5xx answer
 */
function connectorError(z, response) {
  const said = response.data && response.data.error && response.data.error.message;
  const message = typeof said === 'string' && said ? said : `${(response.content || '').slice(0, 200) || 'no message'}`;
  const status = response.status;
  if (status === 401) {
    return new z.errors.Error(
      `Fieldwork refused the API key (401: ${message}). Reconnect the account with a current key.`,
      'unauthorized',
      status,
    );
  }
  if (status === 403) return new z.errors.Error(`Not allowed for this key's member (403: ${message})`, 'forbidden', status);
  if (status === 404) return new z.errors.Error(`Not found (404: ${message})`, 'not_found', status);
  if (status >= 500) return new z.errors.Error(`Fieldwork failed (${status}: ${message})`, 'server_error', status);
  return new z.errors.Error(message, 'invalid_request', status);
}

/**
 * `data.items` of a connector answer (`{data: {items: [...]}}`).
 * @param {HttpResponse} response
 * @returns {any[]}
 */
function itemsOf(response) {
  const items = response.data && response.data.data && response.data.data.items;
  if (!Array.isArray(items)) throw new Error(`Fieldwork answered without data.items: ${String(response.content).slice(0, 200)}`);
  return items;
}

/**
 * The one item a create, update or get answers (`{data: {items: [item]}}`).
 * @param {HttpResponse} response
 */
function firstItem(response) {
  const [item] = itemsOf(response);
  if (!item) throw new Error('Fieldwork answered an empty data.items');
  return item;
}

/**
 * How many items a list should ask for: the platform's `bundle.meta.limit` when it gives one, at
 * most a connector page.
 * @param {Bundle} bundle
 */
function pageSize(bundle) {
  const limit = bundle.meta && bundle.meta.limit;
  return typeof limit === 'number' && limit > 0 ? Math.min(limit, PAGE_MAX) : PAGE_MAX;
}

/**
 * Only the entries of `object` that hold a value: Zapier sends an emptied field as `""` or leaves it
 * out, and the connector reads an absent key as "leave unchanged".
 * @param {Record<string, unknown>} object
 */
function present(object) {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

module.exports = {
  DEFAULT_BASE_URL,
  PAGE_MAX,
  addApiKey,
  baseUrl,
  connectorError,
  explainErrors,
  firstItem,
  itemsOf,
  pageSize,
  present,
  v1,
};
