// @ts-check
'use strict';

const { connectorError, v1 } = require('./api');

/**
 * REST hook triggers over Fieldwork's `/v1/hooks` (CONTRACTS "Wave 3: connector for automation
 * platforms"): turning a Zap on subscribes its `bundle.targetUrl` to one event, turning it off
 * deletes that subscription, and each delivery's JSON body `{id, action, ts, data}` — `data` being
 * the item the matching polling route returns — becomes one trigger result. The polling route is
 * the `performList` Zapier calls for samples while a Zap is being set up.
 *
 * @typedef {import('zapier-platform-core').ZObject} ZObject
 * @typedef {import('zapier-platform-core').Bundle} Bundle
 */

/**
 * `performSubscribe`: `POST /v1/hooks {event, url: bundle.targetUrl}`.
 * @param {(bundle: Bundle) => string} eventOf the subscribed event: an action (`jobcreated`) or a webhook key (`place_checked`)
 * @returns {(z: ZObject, bundle: Bundle) => Promise<{id: string, event: string, url: string, createdAt: number}>}
 *   the subscription, kept by Zapier as `bundle.subscribeData` (without the signing secret the
 *   answer may carry: this app does not verify signatures, the per-Zap target URL is the secret)
 */
function subscribe(eventOf) {
  return async (z, bundle) => {
    const response = await z.request({
      method: 'POST',
      url: v1(z, bundle, '/hooks'),
      body: { event: eventOf(bundle), url: bundle.targetUrl },
    });
    const hook = response.data.data;
    return { id: hook.id, event: hook.event, url: hook.url, createdAt: hook.createdAt };
  };
}

/**
 * `performUnsubscribe`: `DELETE /v1/hooks/{id}` of `bundle.subscribeData`. A subscription that is
 * already gone (404: Fieldwork deletes one whose URL answered 410) counts as removed, so turning the
 * Zap off never fails for it.
 * @param {ZObject} z
 * @param {Bundle} bundle
 * @returns {Promise<{id: string, deleted: true}>}
 */
async function unsubscribe(z, bundle) {
  const id = bundle.subscribeData && bundle.subscribeData.id;
  if (!id)
    throw new z.errors.Error('This Zap has no Fieldwork subscription to remove (subscribeData.id is missing)', 'no_subscription', 400);
  const response = await z.request({
    method: 'DELETE',
    url: v1(z, bundle, `/hooks/${encodeURIComponent(id)}`),
    skipThrowForStatus: true,
  });
  if (response.status === 404) return { id, deleted: true };
  if (response.status >= 400) throw connectorError(z, response);
  return response.data.data;
}

/**
 * `perform`: the delivered item, when it is one this Zap asked for.
 * @param {(item: any, bundle: Bundle) => boolean} accepts
 * @returns {(z: ZObject, bundle: Bundle) => Promise<object[]>} `[data]`, or `[]` for a body without
 *   an item or an item the trigger's options leave out
 */
function receive(accepts) {
  return async (_z, bundle) => {
    const body = bundle.cleanedRequest;
    const item = body && body.data;
    if (!item || typeof item !== 'object' || Array.isArray(item)) return [];
    return accepts(item, bundle) ? [item] : [];
  };
}

/**
 * A hook trigger's `operation`.
 * @param {object} o
 * @param {(bundle: Bundle) => string} o.event the event to subscribe to
 * @param {(z: ZObject, bundle: Bundle) => Promise<object[]>} o.list the polling route, newest first (`performList`)
 * @param {(item: any, bundle: Bundle) => boolean} [o.accepts] which delivered items are results (default: all)
 * @param {import('zapier-platform-core').PlainInputField[]} [o.inputFields]
 * @param {Record<string, unknown>} o.sample
 * @param {import('zapier-platform-core').PlainOutputField[]} o.outputFields
 */
function hookOperation(o) {
  return {
    type: /** @type {const} */ ('hook'),
    inputFields: o.inputFields || [],
    performSubscribe: subscribe(o.event),
    performUnsubscribe: unsubscribe,
    perform: receive(o.accepts || (() => true)),
    performList: o.list,
    sample: o.sample,
    outputFields: o.outputFields,
  };
}

module.exports = { hookOperation };
