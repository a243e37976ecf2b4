import { ROLES } from '@app/core';
import type {
  MediaTypeObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  SchemaObject,
} from 'openapi3-ts/oas30';
import { ACTION_ROLES } from '../envelope/action-roles';
import { DtoSchemas, SCHEMA_REF_PREFIX } from './dto-schemas';
import { actionErrorResponses, connectorErrorResponses } from './error-responses';
import { handlerKey, ResponseSchemas } from './response-schemas';
import { DocRoute } from './routes';

/** Where the JSON document is served (the UI at `/docs` reads it from here). */
export const OPENAPI_JSON_PATH = '/docs/openapi.json';

const ref = (name: string) => ({ $ref: `${SCHEMA_REF_PREFIX}${name}` });

const INTRO = `Fieldwork's two surfaces, generated from the running app's routes and DTOs.

**Action API** — \`POST /api/<action>\` with the envelope \`{data, auth?, ver?}\`; authenticate with the
\`API-Key\` header or \`auth: {usr, key}\` in the body. Every answer has \`status\`: 0 on success, with the
action's keys beside it; otherwise \`{status, error}\` with the HTTP status shown under each operation.
Checks run in this order: malformed JSON, authentication, unknown action (1001/404), \`ver\`, role, \`data\`.

**Connector API** — REST under \`/v1\`, \`API-Key\` header only; answers \`{data: …}\`, errors \`{error: {message}}\`.

Request schemas are exact: they come from the validation rules themselves, and unknown keys are
refused (-1/400). ANSWERS Each operation lists every error status its
surface can answer; 404 and 409 arise only where the call names ids or writes unique fields.
\`/health\`, \`/metrics\` and these docs are not rate limited.`;

const GENERATED_ANSWERS = `Answers are generated at build time from the handlers' TypeScript return types (the
views they carry: jobs, members, company, webhooks…); numbers are JSON numbers, as TypeScript does not
tell integers apart.`;
const ENVELOPE_ANSWERS = `Answers are described by their envelope only here: this build has no generated answer
schemas (\`npm run build\` writes them); their fields are in the spec and CONTRACTS.md.`;

const SURFACE_TAG: Record<DocRoute['surface'], string> = { action: '(actions)', connector: '(/v1)', public: '(public)' };

/** Tag of a controller: `JobsActionsController` → `jobs`. */
const tagOf = (route: DocRoute) => route.controller.replace(/(Actions|Connector)?Controller$/, '').toLowerCase() || 'other';

/**
 * The OpenAPI 3.0 document of the given routes (from {@link routesOf}): for an action the
 * envelope with its `data` DTO, the roles allowed by the merged roles table (`x-roles` too), the
 * `{status: 0, …}` answer and its error statuses; for a connector route its path and query
 * parameters, body DTO, success status, answer and errors. Nothing in it is written per route.
 * @param answers the answers' schemas generated at build time ({@link loadResponseSchemas}); a
 *   handler without one (or no `answers` at all) is described by its envelope only.
 */
export function buildOpenApiDocument(routes: DocRoute[], answers?: ResponseSchemas): OpenAPIObject {
  const schemas = new DtoSchemas();
  const answerSchemas: Record<string, SchemaObject> = { ...answers?.schemas };
  const paths: Record<string, PathItemObject> = {};
  for (const route of routes) {
    const answer = answerSchemaOf(route, answers, answerSchemas);
    const operation =
      route.surface === 'action'
        ? actionOperation(route, schemas, answer)
        : route.surface === 'public'
          ? publicOperation(route)
          : connectorOperation(route, schemas, answer);
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }
  const clash = Object.keys(answerSchemas).find((name) => name in schemas.components);
  if (clash) throw new Error(`OpenAPI: the answer schema ${clash} has the name of a request DTO`);
  const tags = [...new Set(routes.map((r) => `${tagOf(r)} ${SURFACE_TAG[r.surface]}`))].sort();
  return {
    openapi: '3.0.3',
    info: { title: 'Fieldwork API', version: '2', description: INTRO.replace('ANSWERS', answers ? GENERATED_ANSWERS : ENVELOPE_ANSWERS) },
    servers: [{ url: '/' }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'API-Key', description: 'an API key `fwk_…` (CLI `create-api-key`)' },
      },
      schemas: { ...envelopeSchemas(), ...schemas.components, ...answerSchemas },
    },
  };
}

/** The integer 0 of every successful action answer (TypeScript infers `status: 0` as a number). */
const STATUS_ZERO: SchemaObject = { type: 'integer', enum: [0] };

/**
 * The `$ref` to a route's generated answer schema, if the build generated one for its handler. An
 * action's schema gets `status` set to {@link STATUS_ZERO} in each object it may be (a `$ref`
 * to a shared type is copied first, so the shared one is untouched).
 */
function answerSchemaOf(route: DocRoute, answers: ResponseSchemas | undefined, components: Record<string, SchemaObject>) {
  const name = answers?.handlers[handlerKey(route.controller, route.handler)];
  if (!name || !components[name]) return undefined;
  if (route.surface === 'action') components[name] = withStatusZero(components[name], components);
  return ref(name);
}

/** `schema` with `status` required and {@link STATUS_ZERO} in every object of it (its `anyOf`/`oneOf` members, its `$ref` target). */
export function withStatusZero(schema: SchemaObject | ReferenceObject, components: Record<string, SchemaObject>): SchemaObject {
  if ('$ref' in schema) return withStatusZero(components[schema.$ref.slice(SCHEMA_REF_PREFIX.length)] ?? {}, components);
  if (schema.anyOf) return { ...schema, anyOf: schema.anyOf.map((s) => withStatusZero(s, components)) };
  if (schema.oneOf) return { ...schema, oneOf: schema.oneOf.map((s) => withStatusZero(s, components)) };
  if (schema.type !== 'object') return schema;
  const { status: _status, ...rest } = schema.properties ?? {};
  return {
    ...schema,
    properties: { status: STATUS_ZERO, ...rest },
    required: ['status', ...(schema.required ?? []).filter((r) => r !== 'status')],
  };
}

/** The schema of a file answer: a GeoJSON object, or bytes. */
function fileSchema(type: string): SchemaObject {
  return type.endsWith('json') ? { type: 'object', description: 'an RFC 7946 FeatureCollection' } : { type: 'string', format: 'binary' };
}

function actionOperation(route: DocRoute, schemas: DtoSchemas, answer?: ReferenceObject): OperationObject {
  const action = route.action!;
  const roles = Object.hasOwn(ACTION_ROLES, action) ? ACTION_ROLES[action] : [];
  const refused = ROLES.filter((r) => !roles.includes(r));
  const data = route.data ? schemas.ref(route.data) : { type: 'object' as const };
  const rolesLine = roles.length
    ? `Roles: ${roles.join(', ')}${refused.length ? ` (a ${refused.join(' or ')} gets -5/403)` : ''}. Finer rules: CONTRACTS.md "Roles".`
    : 'No role may call it (it is missing from the roles table).';
  return {
    operationId: action,
    tags: [`${tagOf(route)} (actions)`],
    summary: action,
    description: rolesLine,
    'x-roles': [...roles],
    security: [{ ApiKey: [] }, {}],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['data'],
            properties: { data, auth: ref('ActionAuth'), ver: ref('ActionVer') },
          },
        },
      },
    },
    responses: {
      '200': {
        description: route.files
          ? `${route.files.description}; otherwise \`status\` 0 and the JSON answer`
          : answer
            ? 'done: `status` 0 and the action’s answer'
            : 'done: `status` 0 and the action’s answer (its keys are not generated in this build)',
        content: {
          'application/json': { schema: answer ?? ref('ActionAnswer') },
          ...Object.fromEntries((route.files?.types ?? []).map((type) => [type, { schema: fileSchema(type) }])),
        },
      },
      ...actionErrorResponses(),
    },
  };
}

function connectorOperation(route: DocRoute, schemas: DtoSchemas, answer?: ReferenceObject): OperationObject {
  if (route.stream) return streamOperation(route);
  const examples = route.examples;
  const parameters: ParameterObject[] = route.pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(examples?.path?.[name] !== undefined ? { example: examples.path[name] } : {}),
  }));
  if (route.query) {
    const query = schemas.schemaOf(route.query);
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      const { description, ...rest } = schema as SchemaObject;
      parameters.push({
        name,
        in: 'query',
        required: query.required?.includes(name) ?? false,
        schema: rest,
        description,
        ...(examples?.query?.[name] !== undefined ? { example: examples.query[name] } : {}),
      });
    }
  }
  for (const name of route.queryNames) parameters.push({ name, in: 'query', required: false, schema: { type: 'string' } });
  const ok = `${route.successStatus}`;
  // a route answering files (`@ConnectorFiles`) lists their types; JSON too when its handler also returns JSON
  const content: Record<string, MediaTypeObject> = {};
  if (!route.files || answer) content['application/json'] = { schema: answer ?? ref('ConnectorAnswer') };
  for (const type of route.files?.types ?? []) content[type] = { schema: fileSchema(type) };
  for (const [type, example] of Object.entries(examples?.answer ?? {})) {
    if (!content[type])
      throw new Error(`OpenAPI: ${route.method} ${route.path} has an answer example for ${type}, which it does not answer`);
    content[type].example = example;
  }
  const operation: OperationObject = {
    operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [`${tagOf(route)} (/v1)`],
    summary: `${route.method.toUpperCase()} ${route.path}`,
    security: [{ ApiKey: [] }],
    parameters,
    responses: {
      [ok]: {
        description: route.files
          ? route.files.description
          : route.setsOwnStatus
            ? 'done (the route answers another 2xx in some cases: see CONTRACTS.md "Connector /v1")'
            : 'done',
        content,
      },
      ...connectorErrorResponses(),
    },
  };
  if (route.body) {
    operation.requestBody = {
      required: true,
      content: {
        'application/json': { schema: schemas.ref(route.body), ...(examples?.body !== undefined ? { example: examples.body } : {}) },
      },
    };
  }
  return operation;
}

/**
 * A connector route answering a stream (`@ConnectorStream`): its query parameters and headers as the
 * doc names them, the stream's media type as the success answer, the connector's errors (answered
 * before the stream starts). Authenticated by the `API-Key` header or a `token` query parameter.
 */
function streamOperation(route: DocRoute): OperationObject {
  const doc = route.stream!;
  return {
    operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [`${tagOf(route)} (/v1)`],
    summary: doc.summary,
    security: [{ ApiKey: [] }, {}],
    parameters: [
      ...Object.entries(doc.query).map(([name, description]): ParameterObject => ({
        name,
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description,
      })),
      ...Object.entries(doc.headers).map(([name, description]): ParameterObject => ({
        name,
        in: 'header',
        required: false,
        schema: { type: 'string' },
        description,
      })),
    ],
    responses: {
      [`${route.successStatus}`]: {
        description: doc.produces.description,
        content: { [doc.produces.type]: { schema: { type: 'string' } } },
      },
      ...connectorErrorResponses(),
    },
  };
}

/** Errors of a public route: the action API's `{status, error}` JSON, for the kinds such a route answers. */
const PUBLIC_ERRORS = ['404', '429', '500', '503'];

/**
 * A public (keyless) route: its path parameters, its `@PublicRoute` media type, and the errors it can
 * answer (unknown id 404, rate limit 429, failures) in the action API's JSON shape.
 */
function publicOperation(route: DocRoute): OperationObject {
  const doc = route.publicDoc!;
  const errors = actionErrorResponses();
  return {
    operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [`${tagOf(route)} (public)`],
    summary: doc.summary,
    description: 'No key; rate-limited per client IP (the unauthenticated budget).',
    security: [],
    parameters: route.pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    responses: {
      '200': {
        description: doc.produces.description,
        content: { [doc.produces.type]: { schema: doc.produces.type.endsWith('json') ? { type: 'object' } : { type: 'string' } } },
      },
      ...Object.fromEntries(PUBLIC_ERRORS.filter((h) => errors[h]).map((h) => [h, errors[h]])),
    },
  };
}

/** The envelope parts shared by every operation. */
function envelopeSchemas(): Record<string, SchemaObject> {
  return {
    ActionAuth: {
      type: 'object',
      description: 'credentials in the body, instead of the `API-Key` header',
      required: ['key'],
      properties: { usr: { type: 'string', description: 'the key’s member (username); -3 if it is not' }, key: { type: 'string' } },
    },
    ActionVer: {
      type: 'integer',
      enum: [1, 2],
      description: 'answer shapes: 2 (the default) or 1, the older shapes (createaccount and editjobs answer only `status`)',
    },
    ActionAnswer: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'integer', enum: [0] } },
      additionalProperties: true,
      description: 'the action’s keys beside `status` (e.g. `jobs`, `accounts`, `company`): see the spec',
    },
    ConnectorAnswer: {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'object', description: '`{items: [...]}`, or the route’s object (see CONTRACTS.md "Connector /v1")' } },
    },
    ConnectorError: {
      type: 'object',
      required: ['error'],
      properties: { error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } },
    },
  };
}
