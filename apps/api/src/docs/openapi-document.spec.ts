import 'reflect-metadata';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OperationObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas30';
import { IsInt, IsString, Length } from 'class-validator';
import { ACTION_ROLES } from '../envelope/action-roles';
import { buildOpenApiDocument, withStatusZero } from './openapi-document';
import { ResponseSchemas } from './response-schemas';
import { DocRoute } from './routes';

class NameDto {
  @IsString()
  @Length(1, 5)
  name: string;
}

class PageQuery {
  @IsInt()
  limit: number;
}

const base = { controller: 'JobsActionsController', handler: 'x', setsOwnStatus: false, queryNames: [], pathParams: [] };
const routes: DocRoute[] = [
  { ...base, surface: 'action', method: 'post', path: '/api/createjobs', action: 'createjobs', successStatus: 200, data: NameDto },
  { ...base, surface: 'action', method: 'post', path: '/api/getcompany', action: 'getcompany', successStatus: 200 },
  {
    ...base,
    controller: 'JobsConnectorController',
    surface: 'connector',
    method: 'get',
    path: '/v1/jobs/{id}',
    successStatus: 200,
    pathParams: ['id'],
    query: PageQuery,
  },
  {
    ...base,
    controller: 'JobsConnectorController',
    surface: 'connector',
    method: 'post',
    path: '/v1/jobs',
    successStatus: 201,
    body: NameDto,
  },
];

describe('buildOpenApiDocument', () => {
  const doc = buildOpenApiDocument(routes);
  const op = (path: string, method: 'get' | 'post') => doc.paths[path][method] as OperationObject;
  const responses = (o: OperationObject) => o.responses as Record<string, ResponseObject>;

  it('is a valid OpenAPI 3.0 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('wraps an action’s data DTO in the envelope, with its roles', () => {
    const o = op('/api/createjobs', 'post');
    const body = (o.requestBody as { content: Record<string, { schema: SchemaObject }> }).content['application/json'].schema;
    expect(body.required).toEqual(['data']);
    expect(body.properties?.data).toEqual({ $ref: '#/components/schemas/NameDto' });
    expect(o['x-roles']).toEqual([...ACTION_ROLES.createjobs]);
    expect(o.description).toContain('a worker gets -5/403');
    expect(doc.components?.schemas?.NameDto).toMatchObject({ required: ['name'], properties: { name: { minLength: 1, maxLength: 5 } } });
  });

  it('gives an action without @Data() an object and lists every error status with its codes', () => {
    const o = op('/api/getcompany', 'post');
    expect(
      (o.requestBody as { content: Record<string, { schema: SchemaObject }> }).content['application/json'].schema.properties?.data,
    ).toEqual({
      type: 'object',
    });
    expect(Object.keys(responses(o)).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '429', '500', '503']);
    const status = (http: string) =>
      (responses(o)[http].content!['application/json'].schema as SchemaObject).properties!.status as SchemaObject;
    expect(status('401').enum).toEqual([-2, -3]);
    expect(status('404').enum).toEqual([1001]);
    expect(status('503').enum).toEqual([-99]);
    expect(responses(o)['429'].headers).toHaveProperty('Retry-After');
  });

  it('turns a connector route’s path params and query DTO into parameters, and keeps its status', () => {
    const o = op('/v1/jobs/{id}', 'get');
    expect(o.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: true, schema: { type: 'integer' } },
    ]);
    expect(Object.keys(responses(op('/v1/jobs', 'post')))).toContain('201');
    expect(responses(o)['401'].description).not.toContain('auth.usr');
    // no 503 on the connector: PostgreSQL unavailable is one of the 500's meanings
    expect(Object.keys(responses(o))).not.toContain('503');
    expect(responses(o)['500'].description).toContain('PostgreSQL is unreachable');
  });

  it('describes answers by their envelope when the build generated no answer schemas, and says so', () => {
    expect((responses(op('/api/getcompany', 'post'))['200'].content!['application/json'].schema as { $ref: string }).$ref).toBe(
      '#/components/schemas/ActionAnswer',
    );
    expect(doc.info.description).toContain('envelope only');
  });
});

describe('buildOpenApiDocument: connector examples and file answers', () => {
  const connectorBase = { ...base, controller: 'ThingsConnectorController', surface: 'connector' as const };
  const examples: DocRoute[] = [
    {
      ...connectorBase,
      method: 'get',
      path: '/v1/things/{id}',
      successStatus: 200,
      pathParams: ['id'],
      query: PageQuery,
      examples: { path: { id: 'T1' }, query: { limit: 5 }, answer: { 'application/json': { data: { items: [{ id: 'T1' }] } } } },
    },
    {
      ...connectorBase,
      method: 'post',
      path: '/v1/things',
      successStatus: 200,
      body: NameDto,
      files: { types: ['text/csv; charset=utf-8', 'application/pdf'], description: 'the file' },
      examples: { body: { name: 'a' }, answer: { 'text/csv; charset=utf-8': 'A,B\n1,2\n' } },
    },
  ];
  const doc = buildOpenApiDocument(examples);
  const op = (path: string, method: 'get' | 'post') => doc.paths[path][method] as OperationObject;

  it('puts the examples beside their parameters, body and answer; the document stays valid', async () => {
    const get = op('/v1/things/{id}', 'get');
    expect(get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'T1' },
      { name: 'limit', in: 'query', required: true, schema: { type: 'integer' }, example: 5 },
    ]);
    expect((get.responses['200'] as ResponseObject).content!['application/json'].example).toEqual({ data: { items: [{ id: 'T1' }] } });
    const post = op('/v1/things', 'post');
    expect((post.requestBody as { content: Record<string, { example?: unknown }> }).content['application/json'].example).toEqual({
      name: 'a',
    });
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('answers a file-only connector route with its files’ types (no JSON), the example under its type', () => {
    const ok = op('/v1/things', 'post').responses['200'] as ResponseObject;
    expect(Object.keys(ok.content!)).toEqual(['text/csv; charset=utf-8', 'application/pdf']);
    expect(ok.content!['text/csv; charset=utf-8']).toEqual({ schema: { type: 'string', format: 'binary' }, example: 'A,B\n1,2\n' });
    expect(ok.description).toBe('the file');
  });

  it('refuses an answer example for a media type the route does not answer', () => {
    const wrong = { ...examples[1], examples: { answer: { 'application/json': {} } } };
    expect(() => buildOpenApiDocument([wrong])).toThrow(/answer example for application\/json/);
  });
});

describe('buildOpenApiDocument with generated answers', () => {
  const answers: ResponseSchemas = {
    handlers: { 'JobsActionsController.x': 'JobsActions_x', 'JobsConnectorController.x': 'JobsConnector_x' },
    schemas: {
      JobsActions_x: {
        anyOf: [
          { type: 'object', properties: { status: { type: 'number' } }, required: ['status'], additionalProperties: false },
          {
            type: 'object',
            properties: { jobs: { type: 'array', items: { $ref: '#/components/schemas/Job' } }, status: { type: 'number' } },
          },
        ],
      },
      JobsConnector_x: { type: 'object', properties: { data: { $ref: '#/components/schemas/Job' } }, required: ['data'] },
      Job: { type: 'object', properties: { id: { type: 'string' } } },
    },
  };
  const doc = buildOpenApiDocument(routes, answers);
  const schemaOf = (path: string, method: 'get' | 'post', status: string) =>
    ((doc.paths[path][method] as OperationObject).responses[status] as ResponseObject).content!['application/json'].schema;

  it('refers each operation to its handler’s answer, with status 0 in an action’s', async () => {
    expect(schemaOf('/api/createjobs', 'post', '200')).toEqual({ $ref: '#/components/schemas/JobsActions_x' });
    expect(schemaOf('/v1/jobs', 'post', '201')).toEqual({ $ref: '#/components/schemas/JobsConnector_x' });
    const action = doc.components!.schemas!.JobsActions_x as SchemaObject;
    expect(action.anyOf!.map((s) => (s as SchemaObject).properties!.status)).toEqual([
      { type: 'integer', enum: [0] },
      { type: 'integer', enum: [0] },
    ]);
    expect(action.anyOf!.map((s) => (s as SchemaObject).required)).toEqual([['status'], ['status']]);
    expect(doc.components!.schemas!.JobsConnector_x).toEqual(answers.schemas.JobsConnector_x);
    expect(doc.info.description).toContain('generated at build time');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('copies a shared type an action answers before setting its status (withStatusZero)', () => {
    const components: Record<string, SchemaObject> = {
      Shared: { type: 'object', properties: { status: { type: 'number', enum: [0] }, a: {} } },
    };
    expect(withStatusZero({ $ref: '#/components/schemas/Shared' }, components)).toEqual({
      type: 'object',
      properties: { status: { type: 'integer', enum: [0] }, a: {} },
      required: ['status'],
    });
    expect(components.Shared.properties!.status).toEqual({ type: 'number', enum: [0] });
    expect(withStatusZero({ type: 'string' }, components)).toEqual({ type: 'string' });
  });

  it('refuses an answer schema named like a request DTO', () => {
    const clash: ResponseSchemas = { handlers: {}, schemas: { NameDto: { type: 'object' } } };
    expect(() => buildOpenApiDocument(routes, clash)).toThrow(/NameDto/);
  });
});
