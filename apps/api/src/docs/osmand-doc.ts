import type { OpenAPIObject, OperationObject, ParameterObject, PathItemObject, SchemaObject } from 'openapi3-ts/oas30';

/** The path of the Traccar Client (OsmAnd protocol) route. */
export const OSMAND_PATH = '/osmand';

const NUM = 'a decimal number';
/** Query / form parameters of `/osmand` (Traccar's names; all strings on the wire). */
const PARAMS: Array<[name: string, description: string]> = [
  ['id', 'the device id (`members.device_id`, case-insensitive; required unless `deviceid` is sent)'],
  ['deviceid', 'the device id, as `id`'],
  ['timestamp', 'Unix seconds (below 2^31) or ms, ISO 8601, or `yyyy-MM-dd HH:mm:ss` (UTC); default the receive time'],
  ['lat', `latitude, degrees: ${NUM} in [-90, 90]`],
  ['lon', `longitude, degrees: ${NUM} in [-180, 180]`],
  ['location', '`lat,lon` instead of `lat` and `lon`'],
  ['speed', `knots (stored × 0.514444 as m/s): ${NUM} ≥ 0`],
  ['bearing', `degrees: ${NUM} in [0, 360]`],
  ['heading', 'as `bearing`'],
  ['altitude', `m: ${NUM}`],
  ['accuracy', `m: ${NUM} ≥ 0`],
  ['batt', `battery percent: ${NUM} in [0, 100]`],
];

const paramsSchema: SchemaObject = {
  type: 'object',
  description: 'Other parameters (hdop, charge, driverUniqueId, wifi, cell, valid, odometer, activity…) are accepted and ignored.',
  properties: Object.fromEntries(PARAMS.map(([name, description]) => [name, { type: 'string', description }])),
  additionalProperties: { type: 'string' },
};

const jsonSchema: SchemaObject = {
  type: 'object',
  required: ['device_id'],
  description: "The newer Traccar Client's body. Other keys (is_moving, odometer, activity, event, extras…) are ignored.",
  properties: {
    device_id: { type: 'string', maxLength: 64 },
    location: {
      type: 'object',
      description: 'absent, or without `coords`: a heartbeat, no fix stored',
      properties: {
        timestamp: {
          oneOf: [
            { type: 'string', description: 'ISO 8601' },
            { type: 'integer', description: 'Unix seconds or ms' },
          ],
        },
        coords: {
          type: 'object',
          required: ['latitude', 'longitude'],
          properties: {
            latitude: { type: 'number', minimum: -90, maximum: 90 },
            longitude: { type: 'number', minimum: -180, maximum: 180 },
            accuracy: { type: 'number', description: 'm; negative = unknown' },
            speed: { type: 'number', description: 'm/s; negative = unknown' },
            heading: { type: 'number', maximum: 360, description: 'degrees; negative = unknown' },
            altitude: { type: 'number', description: 'm' },
          },
        },
        battery: {
          type: 'object',
          properties: { level: { type: 'number', maximum: 1, description: '0..1; negative = unknown' }, is_charging: { type: 'boolean' } },
        },
      },
    },
  },
};

const errorSchema: SchemaObject = {
  type: 'object',
  required: ['status', 'error'],
  properties: { status: { type: 'integer' }, error: { type: 'string', description: 'names the parameter and the rule it broke' } },
};
const error = (description: string) => ({ description, content: { 'application/json': { schema: errorSchema } } });

function operation(summary: string, extra: Partial<OperationObject>): OperationObject {
  return {
    tags: ['devices (Traccar Client)'],
    summary,
    description:
      'The OsmAnd protocol of the Traccar Client phone app (CONTRACTS.md "Traccar Client / OsmAnd"): one fix for the active member ' +
      'whose `device_id` matches. No API key: the device id is the credential, rate limited per device id with the per-key budget. ' +
      'Counts as tracking on; fires no clock events.',
    'x-surface': 'device',
    responses: {
      200: { description: 'stored (or a heartbeat without coordinates); empty body' },
      400: error(
        'a bad value (named as sent; a device id over 64 characters, holding a NUL byte or a lone surrogate too), or an unknown device for query and form requests',
      ),
      404: error('unknown device (JSON body)'),
      429: error('the device id’s rate limit is spent (`Retry-After`)'),
      431: error('the URL and headers together over 16 KiB (answered by the HTTP server, in the same shape)'),
    },
    ...extra,
  };
}

/** The `/osmand` path item: GET with a query string; POST with a query string, a form body, or the JSON body. */
export function osmandPathItem(): PathItemObject {
  const parameters: ParameterObject[] = PARAMS.map(([name, description]) => ({
    name,
    in: 'query',
    required: false,
    schema: { type: 'string' },
    description,
  }));
  return {
    get: operation('Traccar Client fix (query string)', { parameters }),
    post: operation('Traccar Client fix (query string, form body or JSON body)', {
      parameters,
      requestBody: {
        required: false,
        content: { 'application/x-www-form-urlencoded': { schema: paramsSchema }, 'application/json': { schema: jsonSchema } },
      },
    }),
  };
}

/** `doc` with the device route(s), which are neither actions nor connector routes. */
export function withDeviceRoutes(doc: OpenAPIObject): OpenAPIObject {
  return {
    ...doc,
    tags: [...(doc.tags ?? []), { name: 'devices (Traccar Client)' }],
    paths: { ...doc.paths, [OSMAND_PATH]: osmandPathItem() },
  };
}
