import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { action, startApi, TestApi, uniqueUsername } from '../support/api';

const run = promisify(execFile);
const CLI = resolve(__dirname, '../../dist/apps/cli/src/main.js');

/** Runs the built CLI as `npm run -s cli -- …` does; the last stdout line is one JSON object. */
async function cli(...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: process.env });
    return { code: 0, json: JSON.parse(stdout.trim().split('\n').pop()!), stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, json: JSON.parse(e.stdout.trim().split('\n').pop()!), stderr: e.stderr };
  }
}

describe('CLI (DESIGN.md contracts)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('create-company, create-api-key, list-api-keys, revoke-api-key', async () => {
    const username = uniqueUsername('cli');
    const created = await cli('create-company', '--name', 'CLI Co', '--username', username, '--timezone', 'Asia/Kolkata');
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      companyUid: expect.stringMatching(/^[0-9A-Z]{26}$/),
      memberUid: expect.stringMatching(/^[0-9A-Z]{26}$/),
      username,
      apiKey: expect.stringMatching(/^fwk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/),
      prefix: created.json.apiKey.slice(0, 12),
    });
    const company = await action<any>(api, 'getcompany', {}, { key: created.json.apiKey, usr: username, style: 'body' });
    expect(company.body.company).toMatchObject({ uid: created.json.companyUid, username, name: 'CLI Co', timezone: 'Asia/Kolkata' });

    const second = await cli('create-api-key', '--username', username.toUpperCase());
    expect(second.json).toEqual({
      memberUid: created.json.memberUid,
      apiKey: expect.stringMatching(/^fwk_/),
      prefix: second.json.apiKey.slice(0, 12),
    });
    expect((await action(api, 'getaccounts', {}, { key: second.json.apiKey })).body.status).toBe(0);

    const listed = await cli('list-api-keys', '--username', username);
    expect(listed.json.keys.map((k: { prefix: string }) => k.prefix).sort()).toEqual([created.json.prefix, second.json.prefix].sort());
    expect(JSON.stringify(listed.json)).not.toContain(second.json.apiKey);

    const revoked = await cli('revoke-api-key', '--prefix', second.json.prefix);
    expect(revoked.json).toEqual({ prefix: second.json.prefix, revoked: true });
    expect((await action(api, 'getaccounts', {}, { key: second.json.apiKey })).body.status).toBe(-2);
    expect((await action(api, 'getaccounts', {}, { key: created.json.apiKey })).body.status).toBe(0);
    expect((await cli('revoke-api-key', '--prefix', second.json.prefix)).code).toBe(1);
  });

  it('refuses a taken username or a bad time zone with a message naming it', async () => {
    const username = uniqueUsername('cli');
    expect((await cli('create-company', '--name', 'A', '--username', username)).code).toBe(0);
    const taken = await cli('create-company', '--name', 'B', '--username', username.toUpperCase());
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('username');
    const zone = await cli('create-company', '--name', 'C', '--username', uniqueUsername('cli'), '--timezone', 'Moon/Base');
    expect(zone.code).toBe(1);
    expect(zone.stderr).toContain('timezone');
    const missing = await cli('create-api-key');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--username');
  });

  it('migration-check reports no drift on the migrated test database', async () => {
    const res = await cli('migration-check');
    expect(res).toMatchObject({ code: 0, json: { drift: false } });
  });
});
