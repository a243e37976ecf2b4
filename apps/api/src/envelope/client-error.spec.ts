import { Socket } from 'node:net';
import { pathOfRawRequest } from './client-error';

describe('pathOfRawRequest', () => {
  const socket = () => new Socket() as Socket & Record<symbol, string>;

  it('reads the path from the request line, without its query', () => {
    expect(pathOfRawRequest(Buffer.from(`GET /v1/jobs?x=${'a'.repeat(100)} HTTP/1.1\r\n`), socket())).toBe('/v1/jobs');
    expect(pathOfRawRequest(Buffer.from('POST /api/getjobs HTTP/1.1\r\nHost: x\r\n'), socket())).toBe('/api/getjobs');
  });

  it('is undefined when the packet does not start with a request line and nothing was seen before', () => {
    expect(pathOfRawRequest(Buffer.from('aaaaaaaaaaaaaa HTTP/1.1\r\n'), socket())).toBeUndefined();
    expect(pathOfRawRequest(undefined, socket())).toBeUndefined();
  });
});
