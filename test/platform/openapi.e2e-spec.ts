import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas30';
import { ACTION_ROLES } from '../../apps/api/src/envelope/action-roles';
import { action, connector, createCompany, startApi, TestApi } from '../support/api';

/**
 * `GET /docs` and `GET /docs/openapi.json` over real HTTP: the document is valid OpenAPI 3 and lists
 * exactly the actions and `/v1` routes the running app registered (read from Express' router and
 * the merged roles table, independently of the generator), with the DTOs' rules; the docs are not rate limited.
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

/** The schema of an operation's success answer (its only 2xx response). */
function successSchema(op: OperationObject): SchemaObject | ReferenceObject {
  const [status] = Object.keys(op.responses).filter((s) => s.startsWith('2'));
  return (op.responses[status] as ResponseObject).content!['application/json'].schema!;
}

/**
 * The document's schemas for Ajv (JSON Schema): Ajv reads `nullable` beside a `type`, but not the
 * OpenAPI 3.0 idiom `{allOf: [{$ref}], nullable: true}`, which becomes `anyOf [.., {type: null}]`.
 */
function forAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forAjv);
  if (typeof node !== 'object' || node === null) return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, forAjv(v)]));
  if (out.nullable !== true || 'type' in out) return out;
  const { nullable: _nullable, description, ...rest } = out;
  return { description, anyOf: [rest, { type: 'null' }] };
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
    // and the roles table names the same actions: an action without a roles entry is not served
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

  it('documents /osmand (Traccar Client): GET query, POST query / form / JSON, its answers', () => {
    const get = doc.paths['/osmand'].get as OperationObject;
    const post = doc.paths['/osmand'].post as OperationObject;
    const names = (get.parameters as Array<{ name: string }>).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['id', 'deviceid', 'lat', 'lon', 'location', 'speed', 'timestamp']));
    expect(Object.keys((post.requestBody as { content: object }).content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(Object.keys(post.responses).sort()).toEqual(['200', '400', '404', '429', '431']);
  });

  it('gives every operation its answer schema, generated from the handler’s return type (none is envelope-only)', () => {
    const operations = Object.entries(doc.paths)
      // the device route answers an empty body, the live stream Server-Sent Events, /v1/reports a file (their own tests below)
      .filter(([path]) => path !== '/osmand' && path !== '/v1/stream' && path !== '/v1/reports')
      .flatMap(([path, item]) =>
        Object.entries(item as Record<string, OperationObject>).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
      );
    expect(operations.length).toBeGreaterThan(20);
    // public routes (share links) answer GeoJSON or GPX, not a handler's JSON: checked below
    for (const { name, op } of operations.filter(({ name }) => name.includes(' /api/') || name.includes(' /v1/'))) {
      const schema = successSchema(op) as ReferenceObject;
      const component = schema.$ref?.replace('#/components/schemas/', '');
      expect({ name, component }).toEqual({ name, component: expect.stringMatching(/_/) }); // JobsActions_getjobs, not ActionAnswer
      expect(doc.components!.schemas![component!]).toBeDefined();
    }
    expect(doc.info.description).toContain('generated at build time from the handlers');
  });

  it('documents the live stream: text/event-stream, the key or a token, events, lastEventId and Last-Event-ID, connector errors', () => {
    const op = doc.paths['/v1/stream'].get as OperationObject;
    expect(Object.keys((op.responses['200'] as ResponseObject).content!)).toEqual(['text/event-stream']);
    expect(op.parameters!.map((p) => [(p as ParameterObject).name, (p as ParameterObject).in])).toEqual([
      ['token', 'query'],
      ['events', 'query'],
      ['lastEventId', 'query'],
      ['Last-Event-ID', 'header'],
    ]);
    expect(op.security).toEqual([{ ApiKey: [] }, {}]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429']));
  });

  it('documents the public share routes: no key, GeoJSON, GPX or a page, errors as the action API’s', () => {
    const media = (p: string) => Object.keys(((doc.paths[p].get as OperationObject).responses['200'] as ResponseObject).content!);
    // the track link negotiates: a page for a browser, GeoJSON for everyone else
    expect(media('/share/tracks/{token}')).toEqual(['application/geo+json', 'text/html']);
    expect(media('/share/clusters/{token}')).toEqual(['text/html']);
    expect(media('/share/clusters/{token}.svg')).toEqual(['image/svg+xml']);
    expect(media('/share/tracks/{token}.geojson')).toEqual(['application/geo+json']);
    expect(media('/share/tracks/{token}.gpx')).toEqual(['application/gpx+xml']);
    const gpx = doc.paths['/share/tracks/{token}.gpx'].get as OperationObject;
    expect(gpx.security).toEqual([]);
    expect(gpx.parameters).toEqual([{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(Object.keys(gpx.responses)).toEqual(expect.arrayContaining(['200', '404', '429']));
  });

  it('documents the connector routes of places, positions, tracks, reports, the polling triggers and hooks with examples that match their schemas', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const valid = (name: string, schema: unknown, value: unknown) => {
      const validate = ajv.compile(forAjv({ ...(schema as object), components: doc.components }) as object);
      expect({ name, value, errors: validate(value) ? null : validate.errors }).toEqual({ name, value, errors: null });
    };
    const routes = [
      'GET /v1/places',
      'POST /v1/places',
      'GET /v1/places/{id}',
      'PATCH /v1/places/{id}',
      'DELETE /v1/places/{id}',
      'GET /v1/locations',
      'GET /v1/tracks',
      'POST /v1/reports',
      'GET /v1/checkins',
      'GET /v1/clock-events',
      'GET /v1/alert-firings',
      'GET /v1/hooks',
      'POST /v1/hooks',
      'DELETE /v1/hooks/{id}',
    ];
    for (const name of routes) {
      const [method, path] = name.split(' ');
      const op = doc.paths[path]?.[method.toLowerCase() as 'get'] as OperationObject | undefined;
      expect({ name, documented: !!op }).toEqual({ name, documented: true });
      const [status] = Object.keys(op!.responses).filter((s) => s.startsWith('2'));
      const answers = Object.entries((op!.responses[status] as ResponseObject).content!);
      const examples = answers.filter(([, media]) => media.example !== undefined);
      expect({ name, answerExamples: examples.length }).toEqual({ name, answerExamples: 1 });
      for (const [type, media] of examples) {
        if (type === 'application/json') valid(`${name} answer`, media.schema, media.example);
        else expect(typeof media.example).toBe('string');
      }
      for (const p of (op!.parameters ?? []) as ParameterObject[]) {
        if (p.in === 'path') expect({ name, param: p.name, example: typeof p.example }).toEqual({ name, param: p.name, example: 'string' });
        if (p.example !== undefined) valid(`${name} ${p.name}`, p.schema, p.example);
      }
      if (method === 'GET' && (op!.parameters ?? []).some((p) => (p as ParameterObject).in === 'query'))
        expect({ name, queryExample: (op!.parameters as ParameterObject[]).some((p) => p.in === 'query' && p.example !== undefined) }).toEqual({
          name,
          queryExample: true,
        });
      const body = (op!.requestBody as { content: Record<string, { schema: SchemaObject; example?: unknown }> } | undefined)?.content['application/json'];
      if (body) {
        expect({ name, bodyExample: body.example !== undefined }).toEqual({ name, bodyExample: true });
        valid(`${name} body`, body.schema, body.example);
      }
    }
    const reports = (doc.paths['/v1/reports'].post as OperationObject).responses['200'] as ResponseObject;
    expect(Object.keys(reports.content!)).not.toContain('application/json');
    expect(Object.keys(reports.content!)).toEqual(expect.arrayContaining(['text/csv; charset=utf-8', 'application/pdf', 'application/zip']));
  });

  it('documents createreport’s and getreport’s file answers beside their JSON (report state, errors)', async () => {
    const resolved = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as OpenAPIObject;
    for (const action of ['createreport', 'getreport']) {
      const ok = (resolved.paths[`/api/${action}`].post as OperationObject).responses['200'] as ResponseObject;
      expect(Object.keys(ok.content!).sort()).toEqual(
        ['application/json', 'application/pdf', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv; charset=utf-8', 'application/geo+json', 'application/zip'].sort(),
      );
      expect(ok.content!['application/pdf'].schema).toEqual({ type: 'string', format: 'binary' });
      const json = JSON.stringify(ok.content!['application/json'].schema);
      expect(json).toContain('reportId');
      expect(json).toContain('state');
    }
  });

  it('documents getjobs’ and createjobs’ answers: status 0 and the jobs with JobView’s fields', async () => {
    const resolved = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as OpenAPIObject;
    const getjobs = successSchema(resolved.paths['/api/getjobs'].post as OperationObject) as SchemaObject;
    expect(getjobs.required).toEqual(['status', 'jobs']);
    expect(getjobs.properties!.status).toEqual({ type: 'integer', enum: [0] });
    const [full, compact] = (getjobs.properties!.jobs as SchemaObject).anyOf as SchemaObject[];
    const job = full.items as SchemaObject;
    expect(job.type).toBe('object');
    expect(job.required).toEqual(
      expect.arrayContaining(['id', 'day', 'destinationName', 'progress', 'scheduledStart', 'extra_text_1_val']),
    );
    expect(job.required).not.toContain('status'); // only on archived jobs
    expect(job.properties!.day).toMatchObject({ type: 'number', description: expect.stringContaining('YYYYMMDD') });
    expect(job.properties!.destinationLat).toEqual({ type: 'number', nullable: true });
    expect(job.properties!.progress).toMatchObject({
      type: 'string',
      enum: ['scheduled', 'accepted', 'rejected', 'started', 'success', 'failed'],
    });
    expect(job.properties!.customFields).toMatchObject({
      type: 'array',
      items: { properties: { key: { type: 'string' }, val: { type: 'string' } } },
    });
    expect((compact.items as SchemaObject).required).toEqual(['id']);

    const createjobs = successSchema(resolved.paths['/api/createjobs'].post as OperationObject) as SchemaObject;
    expect(createjobs.properties!.status).toEqual({ type: 'integer', enum: [0] });
    expect(createjobs.properties!.jobs).toEqual({ type: 'array', items: job });
    // editjobs answers `jobs` in version 2 only: both shapes
    const editjobs = successSchema(resolved.paths['/api/editjobs'].post as OperationObject) as SchemaObject;
    expect(editjobs.anyOf!.map((s) => Object.keys((s as SchemaObject).properties!))).toEqual([['status'], ['status', 'jobs']]);
  });

  it('documents a /v1 route’s answer as the handler returns it: {data: {items: [ConnectorJob]}} (GET /v1/jobs)', () => {
    const list = successSchema(doc.paths['/v1/jobs'].get as OperationObject) as ReferenceObject;
    const answer = doc.components!.schemas![list.$ref.replace('#/components/schemas/', '')] as SchemaObject;
    const data = answer.properties!.data as SchemaObject;
    expect(answer.required).toEqual(['data']);
    expect(data.properties!.items).toEqual({ type: 'array', items: { $ref: '#/components/schemas/ConnectorJob' } });
    const job = doc.components!.schemas!.ConnectorJob as SchemaObject;
    expect(job.properties!.date).toMatchObject({ type: 'string', nullable: true });
    expect(job.required).toEqual(expect.arrayContaining(['id', 'externalId', 'title', 'timeWindow', 'assignee', 'contact']));
    expect(Object.keys(doc.paths['/v1/jobs'].post!.responses)).toContain('201');
  });

  it('describes real answers exactly: they validate against their documented schemas', async () => {
    const company = await createCompany(api);
    const ajv = new Ajv({ strict: false, allErrors: true });
    const check = (op: OperationObject | undefined, body: unknown) => {
      const validate = ajv.compile(forAjv({ ...successSchema(op!), components: doc.components }) as object);
      expect({ body, errors: validate(body) ? null : validate.errors }).toEqual({ body, errors: null });
    };
    const api_ = (name: string, data: unknown) => action(api, name, data, { key: company.key });
    const created = await api_('createjobs', {
      jobs: [{ destinationName: 'docs', day: 20300115, customFields: [{ key: 'k', val: 'v' }] }],
    });
    expect(created.http).toBe(200);
    check(doc.paths['/api/createjobs'].post, created.body);
    check(doc.paths['/api/getjobs'].post, (await api_('getjobs', { day: 20300115 })).body);
    check(doc.paths['/api/getjobs'].post, (await api_('getjobs', { day: 20300115, compact: true })).body);
    const id = (created.body.jobs as Array<{ id: string }>)[0].id;
    check(doc.paths['/api/archivejobs'].post, (await api_('archivejobs', { jobs: { [id]: {} } })).body);
    check(doc.paths['/api/getjobs'].post, (await api_('getjobs', { id })).body); // archived: `status: "archived"`
    check(doc.paths['/api/getaccounts'].post, (await api_('getaccounts', {})).body);
    check(doc.paths['/api/getcompany'].post, (await api_('getcompany', {})).body);
    check(doc.paths['/api/getwebhooks'].post, (await api_('getwebhooks', {})).body);
    check(doc.paths['/api/getnotifications'].post, (await api_('getnotifications', {})).body);
    const place = await api_('createplace', { name: 'docs', location: { lat: 46, lng: 14 }, extended_data: [{ key: 'k', val: 'v' }] });
    expect(place.http).toBe(200);
    check(doc.paths['/api/createplace'].post, place.body);
    await api_('createplace', { name: 'docs 2', location: { lat: 45, lng: 14 } });
    check(doc.paths['/api/getplaces'].post, (await api_('getplaces', {})).body);
    check(doc.paths['/api/editplace'].post, (await api_('editplace', { uid: place.body.uid, radius: 5 })).body);
    check(doc.paths['/api/deleteplace'].post, (await api_('deleteplace', { uid: place.body.uid })).body);
    const list = await connector(api, 'GET', '/v1/jobs?includeArchived=true', company.key);
    expect(list.body.data.items.length).toBe(1);
    check(doc.paths['/v1/jobs'].get, list.body);
    check(doc.paths['/v1/auth/whoami'].get, (await connector(api, 'GET', '/v1/auth/whoami', company.key)).body);
    check(doc.paths['/v1/webhooks'].get, (await connector(api, 'GET', '/v1/webhooks', company.key)).body);
    const v1Place = await connector(api, 'POST', '/v1/places', company.key, { name: 'v1', location: { lat: 46, lng: 14 } });
    check(doc.paths['/v1/places'].post, v1Place.body);
    check(doc.paths['/v1/places'].get, (await connector(api, 'GET', '/v1/places', company.key)).body);
    check(doc.paths['/v1/places/{id}'].get, (await connector(api, 'GET', `/v1/places/${v1Place.body.data.items[0].id}`, company.key)).body);
    await action(api, 'pushlocations', { tracking: true, locations: [{ ts: Date.now(), lat: 46, lng: 14, spd: 2 }] }, { key: company.key });
    const positions = await connector(api, 'GET', '/v1/locations', company.key);
    expect(positions.body.data.items[0]).toMatchObject({ state: 'moving', trackingOn: true });
    check(doc.paths['/v1/locations'].get, positions.body);
    const tracks = await connector(api, 'GET', `/v1/tracks?memberId=${company.ownerUid}&from=${Date.now() - 3600_000}&until=${Date.now()}`, company.key);
    check(doc.paths['/v1/tracks'].get, tracks.body);
    const hook = await connector(api, 'POST', '/v1/hooks', company.key, { event: 'jobcreated', url: 'https://hooks.example.com/docs' });
    expect(hook.http).toBe(201);
    check(doc.paths['/v1/hooks'].post, hook.body);
    check(doc.paths['/v1/hooks'].get, (await connector(api, 'GET', '/v1/hooks', company.key)).body);
    check(doc.paths['/v1/hooks/{id}'].delete, (await connector(api, 'DELETE', `/v1/hooks/${hook.body.data.id}`, company.key)).body);
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
