import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ENCODE_FIRST_CHARS, sendJsonText } from './json-answer';

/** A real `node:http` server answering every request with `sendJsonText(res, json, status)`. */
async function serve(json: string | Buffer, status?: number): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => sendJsonText(res, json, status));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function call(server: Server, method: string): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: '/' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sendJsonText', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  // multi-byte text (é: 2 bytes, 🚚: 4 bytes in UTF-8) on both sides of the threshold: the length sent
  // is the bytes', not the characters', and the body arrives byte for byte
  const answer = (chars: number) => {
    const head = '{"status":0,"text":"';
    const filler = 'Rue de la Paix é 🚚 '.repeat(Math.ceil(chars / 19)).slice(0, chars - head.length - 2);
    return `${head}${filler}"}`;
  };

  it.each([
    ['short (written as text)', 200],
    ['just under the threshold', ENCODE_FIRST_CHARS - 1],
    ['at the threshold (encoded first)', ENCODE_FIRST_CHARS],
    ['2 MB (encoded first)', 2_000_000],
  ])('%s: status, JSON content type, byte length and the exact UTF-8 body', async (_label, chars) => {
    const json = answer(chars);
    expect(json.length).toBe(chars);
    server = await serve(json, 201);
    const res = await call(server, 'POST');
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(json));
    expect(Number(res.headers['content-length'])).toBeGreaterThan(chars);
    expect(res.body.equals(Buffer.from(json, 'utf8'))).toBe(true);
    expect(JSON.parse(res.body.toString('utf8'))).toEqual({ status: 0, text: expect.stringContaining('🚚') });
  });

  it.each([
    ['short', 200],
    ['2 MB', 2_000_000],
  ])('%s UTF-8 bytes: written as they are, with their length', async (_label, chars) => {
    const bytes = Buffer.from(answer(chars), 'utf8');
    server = await serve(bytes);
    const res = await call(server, 'POST');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
    expect(res.body.equals(bytes)).toBe(true);
  });

  it("measures a short text's UTF-8 length once, and sends the headers set before it", async () => {
    const json = answer(60_000);
    let measured = -1;
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('X-Request-Id', 'r-1');
        const byteLength = jest.spyOn(Buffer, 'byteLength');
        try {
          sendJsonText(res, json);
          // Node's `res.end(text)` measures the text again when the head is not written yet
          measured = byteLength.mock.calls.filter(([arg]) => arg === json).length;
        } finally {
          byteLength.mockRestore();
        }
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const res = await call(server, 'POST');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('r-1');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(json));
    expect(res.body.equals(Buffer.from(json, 'utf8'))).toBe(true);
    expect(measured).toBe(1);
  });

  it('answers HEAD with the length and no body, long or short', async () => {
    for (const chars of [200, ENCODE_FIRST_CHARS + 10]) {
      const json = answer(chars);
      server = await serve(json);
      const res = await call(server, 'HEAD');
      expect(res.status).toBe(200);
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(json));
      expect(res.body.length).toBe(0);
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
    }
  });
});
