import SwaggerParser from '@apidevtools/swagger-parser';
import { ACTION_ROLES } from '@app/core';
import type { OpenAPIObject, OperationObject, ReferenceObject, SchemaObject } from 'openapi3-ts/oas30';
import { startApi, TestApi } from './support/api';

/**
 * `GET /docs` and `GET /docs/openapi.json` over real HTTP: the document is valid OpenAPI 3 and lists
 * exactly the actions and `/v1` routes the running app registered (read from Express' router and
 * the policy table, independently of the generator), with the DTOs' rules; the docs are not rate limited.
 */
// a small unauthenticated budget, to show the docs are not charged against it
process.env.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE = '3';

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** `METHOD /path/{param}` of every route Express holds, read from its router (not from our generator). */
function registeredRoutes(api: TestApi): string[] {
  const express = api.app.getHttpAdapter().getInstance() as { router: { stack: ExpressLayer[] } };
  return express.router.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((m) => m !== '_all')
          .map((m) => `${m.toUpperCase()} ${layer.route!.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`)
      : [],
  );
}

function documentedRoutes(doc: OpenAPIObject): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
}

describe('OpenAPI docs', () => {
  let api: TestApi;
  let doc: OpenAPIObject;
  const clientIp = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;

  beforeAll(async () => {
    api = await startApi();
    const res = await fetch(`${api.url}/docs/openapi.json`, { headers: { 'x-forwarded-for': clientIp } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as OpenAPIObject;
  });

  afterAll(async () => {
    await api?.close();
  });

  it('is a valid OpenAPI 3 document, every $ref resolving', async () => {
    expect(doc.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('lists every action the app registered, and only those', () => {
    const registered = registeredRoutes(api)
      .filter((r) => r.startsWith('POST /api/') && r !== 'POST /api/{action}') // the unknown-action fallback
      .sort();
    const documented = documentedRoutes(doc)
      .filter((r) => r.includes(' /api/'))
      .sort();
    expect(registered.length).toBeGreaterThan(0);
    expect(documented).toEqual(registered);
    // and the policy table names the same actions
    expect(documented).toEqual(
      Object.keys(ACTION_ROLES)
        .map((a) => `POST /api/${a}`)
        .sort(),
    );
  });

  it('lists every /v1 route the app registered, and only those', () => {
    const registered = registeredRoutes(api)
      .filter((r) => r.includes(' /v1/') || r.endsWith(' /v1'))
      .sort();
    const documented = documentedRoutes(doc)
      .filter((r) => r.includes(' /v1'))
      .sort();
    expect(registered).toContain('GET /v1/jobs/{id}');
    expect(documented).toEqual(registered);
  });

  it('documents an action’s data with its DTO’s rules, roles and errors (createjobs)', async () => {
    const resolved = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as OpenAPIObject;
    const op = resolved.paths['/api/createjobs'].post as OperationObject;
    const envelope = (op.requestBody as { content: Record<string, { schema: SchemaObject }> }).content['application/json'].schema;
    expect(envelope.required).toEqual(['data']);
    const data = envelope.properties!.data as SchemaObject;
    expect(data.required).toEqual(['jobs']);
    expect(data.additionalProperties).toBe(false);
    const jobs = data.properties!.jobs as SchemaObject;
    expect(jobs).toMatchObject({ type: 'array', maxItems: 1000 });
    const job = jobs.items as SchemaObject;
    expect(job.properties!.priority).toMatchObject({ type: 'integer', minimum: 0, maximum: 10 });
    expect(job.properties!.destinationLat).toMatchObject({ type: 'number', minimum: -90, maximum: 90, nullable: true });
    expect(data.properties!.sendRouteChange).toEqual({ type: 'boolean' });
    expect(op['x-roles']).toEqual([...ACTION_ROLES.createjobs]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429']));
  });

  it('documents a connector route’s query parameters and body (/v1/jobs)', () => {
    const list = doc.paths['/v1/jobs'].get as OperationObject;
    const limit = list.parameters?.find((p) => (p as { name: string }).name === 'limit') as {
      in: string;
      required: boolean;
      schema: SchemaObject;
    };
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 0 } });
    const create = doc.paths['/v1/jobs'].post as OperationObject;
    const body = (create.requestBody as { content: Record<string, { schema: ReferenceObject }> }).content['application/json'].schema;
    expect(body.$ref).toBe('#/components/schemas/ConnectorJobBody');
    expect(Object.keys(create.responses)).toContain('201');
    expect(doc.paths['/v1/jobs/{id}'].delete?.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
  });

  it('serves Swagger UI at /docs under helmet’s CSP, with its assets', async () => {
    const page = await fetch(`${api.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<div id="swagger-ui">');
    expect(html).not.toMatch(/<script>[^<]/); // no inline script: CSP would block it
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js']) {
      const res = await fetch(`${api.url}/docs/assets/${asset}`);
      expect(res.status).toBe(200);
      expect((await res.text()).length).toBeGreaterThan(50);
    }
    expect((await fetch(`${api.url}/docs/assets/index.html`)).status).toBe(404);
  });

  it('is not rate limited (unauthenticated requests past the budget still get the docs)', async () => {
    const headers = { 'x-forwarded-for': clientIp };
    for (let i = 0; i < 6; i++) {
      expect((await fetch(`${api.url}/docs/openapi.json`, { headers })).status).toBe(200);
      expect((await fetch(`${api.url}/docs`, { headers })).status).toBe(200);
    }
    // the same client without a key is limited after 3: the docs requests were not charged
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${api.url}/api/getcompany`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ data: {} }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect((await fetch(`${api.url}/docs/openapi.json`, { headers })).status).toBe(200);
  });
});
