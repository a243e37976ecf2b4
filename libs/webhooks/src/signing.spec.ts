import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signatureHeader } from './signing';

/** The Standard Webhooks signature computed independently: HMAC-SHA256 over "id.timestamp.body" with the base64 key after whsec_. */
function independentSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

describe('newWebhookSecret', () => {
  it('is whsec_ + base64 of 32 random bytes, different every time', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
  });
});

describe('signatureHeader', () => {
  const id = 'msg_01JQ7ZJ8Y4S0K3T6W9XAPB2C5D';
  const timestamp = 1_774_000_000; // Unix seconds
  const body = 'account=owner%40example.test&id=JOB1&data=%5B%7B%22id%22%3A%22JOB1%22%7D%5D&action=jobcreated&reason=jobcreated';

  it('matches an independent HMAC-SHA256 of "id.timestamp.body"', () => {
    const secret = newWebhookSecret();
    const header = signatureHeader([secret], id, timestamp, body);
    expect(header).toBe(independentSignature(secret, id, timestamp, body));
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('matches a fixed vector', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const expected = createHmac('sha256', Buffer.alloc(32, 7)).update(`${id}.${timestamp}.${body}`).digest('base64');
    expect(signatureHeader([secret], id, timestamp, body)).toBe(`v1,${expected}`);
  });

  it('signs the timestamp in seconds (a different second → a different signature)', () => {
    const secret = newWebhookSecret();
    expect(signatureHeader([secret], id, timestamp, body)).not.toBe(signatureHeader([secret], id, timestamp + 1, body));
    expect(signatureHeader([secret], id, timestamp + 1, body)).toBe(independentSignature(secret, id, timestamp + 1, body));
  });

  it('changes with the id and the body', () => {
    const secret = newWebhookSecret();
    const base = signatureHeader([secret], id, timestamp, body);
    expect(signatureHeader([secret], `${id}X`, timestamp, body)).not.toBe(base);
    expect(signatureHeader([secret], id, timestamp, `${body}&x=1`)).not.toBe(base);
  });

  it('two secrets (after a rotation) → two space-separated v1 entries, newest first, each verifiable', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const header = signatureHeader([current, previous], id, timestamp, body);
    const entries = header.split(' ');
    expect(entries).toHaveLength(2);
    expect(entries).toEqual([independentSignature(current, id, timestamp, body), independentSignature(previous, id, timestamp, body)]);
    for (const e of entries) expect(e).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('a receiver holding either secret verifies it with the standardwebhooks library', () => {
    // the library parses the verified payload as JSON, so this check signs a JSON body
    const json = '{"id":"JOB1","version":2}';
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader([current, previous], id, now, json);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(now), 'webhook-signature': header };
    for (const secret of [current, previous]) expect(new Webhook(secret).verify(json, headers)).toEqual({ id: 'JOB1', version: 2 });
    expect(() => new Webhook(newWebhookSecret()).verify(json, headers)).toThrow();
  });

  it('handles a body with non-ASCII text as UTF-8', () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const text = 'destinationName=Café Zürich ✓';
    expect(signatureHeader([secret], id, timestamp, text)).toBe(independentSignature(secret, id, timestamp, text));
  });
});
