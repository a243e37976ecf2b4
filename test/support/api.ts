import 'reflect-metadata';
import { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { CompanyService } from '@app/members';
import { createApiApp } from '../../apps/api/src/bootstrap';

/** A running api on a loopback port, booted exactly as `main.ts` boots it. */
export interface TestApi {
  app: INestApplication;
  url: string;
  close(): Promise<void>;
}

export async function startApi(): Promise<TestApi> {
  const app = await createApiApp({ logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

let seq = 0;
/** A username no other test (or run) uses. */
export function uniqueUsername(label = 'user'): string {
  seq += 1;
  return `${label}.${Date.now().toString(36)}${seq}${Math.random().toString(36).slice(2, 6)}@example.test`;
}

export interface TestCompany {
  companyUid: string;
  ownerUid: string;
  username: string;
  key: string;
}

/** A fresh company with its owner and a key, through the same service the CLI uses. */
export async function createCompany(api: TestApi, opts: { timezone?: string; name?: string } = {}): Promise<TestCompany> {
  const username = uniqueUsername('owner');
  const created = await api.app.get(CompanyService).createCompany({ name: opts.name ?? 'Test Co', username, timezone: opts.timezone });
  return { companyUid: created.companyUid, ownerUid: created.memberUid, username, key: created.apiKey };
}

export interface ActionResult<T = Record<string, unknown>> {
  http: number;
  body: T & { status: number; error?: string };
}

/**
 * Calls `POST /api/<action>` over real HTTP. Header style by default; `style: 'body'` sends
 * `auth: {usr, key}` instead.
 */
export async function action<T = Record<string, unknown>>(
  api: TestApi,
  name: string,
  data: unknown,
  auth: { key?: string; usr?: string; style?: 'header' | 'body' } = {},
  extra: Record<string, unknown> = {},
): Promise<ActionResult<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const body: Record<string, unknown> = { data, ...extra };
  if (auth.style === 'body') body.auth = { usr: auth.usr, key: auth.key };
  else if (auth.key) headers['api-key'] = auth.key;
  const res = await fetch(`${api.url}/api/${name}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { http: res.status, body: (await res.json()) as ActionResult<T>['body'] };
}

/** Calls a connector route over real HTTP with the `API-Key` header. */
export async function connector<T = any>(
  api: TestApi,
  method: string,
  path: string,
  key?: string,
  body?: unknown,
): Promise<{ http: number; body: T }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key) headers['api-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${api.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { http: res.status, body: (await res.json()) as T };
}

/** Creates a member through `createaccount` and issues it a key. */
export async function createMember(
  api: TestApi,
  company: TestCompany,
  fields: { role?: string; teams?: number[]; name?: string; username?: string } = {},
): Promise<{ uid: string; username: string; key: string }> {
  const username = fields.username ?? uniqueUsername(fields.role ?? 'worker');
  const res = await action<{ uid: string }>(
    api,
    'createaccount',
    { name: fields.name ?? `Member ${username}`, username, role: fields.role, teams: fields.teams, password: 'correct horse battery' },
    { key: company.key },
  );
  if (res.body.status !== 0) throw new Error(`createaccount failed: ${JSON.stringify(res.body)}`);
  const { ApiKeysService } = await import('@app/members');
  const key = await api.app.get(ApiKeysService).issue(username);
  return { uid: res.body.uid, username, key: key.apiKey };
}
