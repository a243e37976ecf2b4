import { IncomingMessage, maxHeaderSize, Server } from 'node:http';
import { Socket } from 'node:net';
import { surfaceOf } from './exception.filter';

/** The path of the latest request seen on a socket (keep-alive), for a later head that overflows. */
const LAST_PATH = Symbol('fieldwork.lastPath');
type TrackedSocket = Socket & { [LAST_PATH]?: string };

/** Node's own answers to a request its parser refused (`http` server `clientError` defaults). */
function statusOfParseError(code: string | undefined): { http: number; text: string; message: string } {
  switch (code ?? '') {
    case 'HPE_HEADER_OVERFLOW':
      return {
        http: 431,
        text: 'Request Header Fields Too Large',
        message: `request header fields too large: the URL and headers together must stay under ${maxHeaderSize} bytes`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { http: 413, text: 'Payload Too Large', message: 'body: chunk extensions too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { http: 408, text: 'Request Timeout', message: 'request timeout: the request was not received in time' };
    default:
      return { http: 400, text: 'Bad Request', message: 'malformed HTTP request' };
  }
}

/**
 * The path named by the request line at the start of `raw` (the bytes Node's parser had when it
 * failed), else the latest request's path on the same connection, else undefined.
 */
export function pathOfRawRequest(raw: Buffer | undefined, socket: TrackedSocket): string | undefined {
  const line = /^[A-Z]{3,10} (\/[^\s?#]*)/.exec(raw?.subarray(0, 2048).toString('latin1') ?? '');
  return line?.[1] ?? socket[LAST_PATH];
}

/**
 * Requests Node's HTTP parser refuses before any route runs (a URL and headers over
 * `maxHeaderSize`, 16 KiB by default → 431; other malformed requests → 400) are answered in the
 * surface's error shape instead of Node's empty body: connector `{error: {message}}`, every other
 * path (the action API, share links, `/osmand`, operational routes) the action shape
 * `{status: -1, error}`. The path comes from the request line when the failing packet holds it, else
 * from the connection's previous request; when neither is known (a huge head split over many packets
 * on a fresh connection) the answer takes a neutral `{statusCode, message}` shape.
 */
export function answerClientErrorsInShape(server: Server): void {
  server.on('request', (req: IncomingMessage) => {
    (req.socket as TrackedSocket)[LAST_PATH] = req.url?.split('?')[0];
  });
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: TrackedSocket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { http, text, message } = statusOfParseError(err.code);
    const path = pathOfRawRequest(err.rawPacket, socket);
    const body = JSON.stringify(
      path === undefined
        ? { statusCode: http, message }
        : surfaceOf(path) === 'connector'
          ? { error: { message } }
          : { status: -1, error: message },
    );
    socket.end(
      `HTTP/1.1 ${http} ${text}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
