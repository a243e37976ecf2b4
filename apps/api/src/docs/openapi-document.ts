import { ACTION_ROLES, ROLES } from '@app/core';
import type { OpenAPIObject, OperationObject, ParameterObject, PathItemObject, SchemaObject } from 'openapi3-ts/oas30';
import { DtoSchemas, SCHEMA_REF_PREFIX } from './dto-schemas';
import { actionErrorResponses, connectorErrorResponses } from './error-responses';
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
refused (-1/400). Answers are described by their envelope only: the views they carry (jobs,
members, company, webhooks…) are TypeScript interfaces, which leave no metadata to generate from —
their fields are in the spec and CONTRACTS.md. Each operation lists every error status its
surface can answer; 404 and 409 arise only where the call names ids or writes unique fields.
\`/health\`, \`/metrics\` and these docs are not rate limited.`;

/** Tag of a controller: `JobsActionsController` → `jobs`. */
const tagOf = (route: DocRoute) => route.controller.replace(/(Actions|Connector)?Controller$/, '').toLowerCase() || 'other';

/**
 * The OpenAPI 3.0 document of the given routes (from {@link routesOf}): for an action the
 * envelope with its `data` DTO, the roles allowed by the policy table (`x-roles` too), the
 * `{status: 0}` answer and its error statuses; for a connector route its path and query
 * parameters, body DTO, success status and errors. Nothing in it is written per route.
 */
export function buildOpenApiDocument(routes: DocRoute[]): OpenAPIObject {
  const schemas = new DtoSchemas();
  const paths: Record<string, PathItemObject> = {};
  for (const route of routes) {
    const operation = route.surface === 'action' ? actionOperation(route, schemas) : connectorOperation(route, schemas);
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }
  const tags = [...new Set(routes.map((r) => `${tagOf(r)} ${r.surface === 'action' ? '(actions)' : '(/v1)'}`))].sort();
  return {
    openapi: '3.0.3',
    info: { title: 'Fieldwork API', version: '2', description: INTRO },
    servers: [{ url: '/' }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'API-Key', description: 'an API key `fwk_…` (CLI `create-api-key`)' },
      },
      schemas: { ...envelopeSchemas(), ...schemas.components },
    },
  };
}

function actionOperation(route: DocRoute, schemas: DtoSchemas): OperationObject {
  const action = route.action!;
  const roles = (ACTION_ROLES as Record<string, readonly string[] | undefined>)[action] ?? [];
  const refused = ROLES.filter((r) => !roles.includes(r));
  const data = route.data ? schemas.ref(route.data) : { type: 'object' as const };
  const rolesLine = roles.length
    ? `Roles: ${roles.join(', ')}${refused.length ? ` (a ${refused.join(' or ')} gets -5/403)` : ''}. Finer rules: CONTRACTS.md "Roles".`
    : 'No role may call it (it is missing from the policy table).';
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
      '200': { description: 'done: `status` 0 and the action’s answer', content: { 'application/json': { schema: ref('ActionAnswer') } } },
      ...actionErrorResponses(),
    },
  };
}

function connectorOperation(route: DocRoute, schemas: DtoSchemas): OperationObject {
  const parameters: ParameterObject[] = route.pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  if (route.query) {
    const query = schemas.schemaOf(route.query);
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      const { description, ...rest } = schema as SchemaObject;
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema: rest, description });
    }
  }
  for (const name of route.queryNames) parameters.push({ name, in: 'query', required: false, schema: { type: 'string' } });
  const ok = `${route.successStatus}`;
  const operation: OperationObject = {
    operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [`${tagOf(route)} (/v1)`],
    summary: `${route.method.toUpperCase()} ${route.path}`,
    security: [{ ApiKey: [] }],
    parameters,
    responses: {
      [ok]: {
        description: route.setsOwnStatus ? 'done (the route answers another 2xx in some cases: see CONTRACTS.md "Connector /v1")' : 'done',
        content: { 'application/json': { schema: ref('ConnectorAnswer') } },
      },
      ...connectorErrorResponses(),
    },
  };
  if (route.body) operation.requestBody = { required: true, content: { 'application/json': { schema: schemas.ref(route.body) } } };
  return operation;
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
