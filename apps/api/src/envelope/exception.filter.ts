import { randomUUID } from 'node:crypto';
import { DomainError, ErrorKind, isDatabaseUnavailable, RateLimitedError } from '@app/core';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { Request, Response } from 'express';
import { noteAnsweredError } from '../ops/logging';
import { prefersHtml, renderErrorPage } from '../share/share-html';
import { connectorHttpOf, kindOfHttpStatus, statusOf } from './errors';
import { sendJsonText, sendsJsonWithoutEtag } from './json-answer';

/**
 * `public`: keyless routes of the wire contract outside /api and /v1 (share links), errors in the
 * action shape. `other`: everything else outside /api and /v1 (operational routes, `/osmand`, unknown
 * paths): its 404s and the errors we write ourselves in the action shape, Nest's own bodies of the
 * operational routes' exceptions kept (see {@link answerError}).
 */
type Surface = 'action' | 'connector' | 'public' | 'other';

export function surfaceOf(path: string): Surface {
  if (path.startsWith('/api/') || path === '/api') return 'action';
  if (path.startsWith('/v1/') || path === '/v1') return 'connector';
  if (path.startsWith('/share/')) return 'public';
  return 'other';
}

/**
 * The one place errors become responses. Action API and public share links: `{status, error}` with
 * the matching HTTP status; connector: `{error: {message}}`. Unknown errors: 500 (action API: -99/503 when PostgreSQL
 * is unreachable; the connector stays at 500) with a generic message and an error id that is also logged.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    answerError(exception, ctx.getRequest<Request>(), ctx.getResponse<Response>());
  }
}

const errorsLogger = new Logger('Errors');

/**
 * {@link ApiExceptionFilter}'s answer to `exception`, for handlers outside Nest's router too (the
 * lean `/osmand` route): the surface's error shape, `Retry-After` for a rate limit, Nest's own body
 * for an HttpException other than 404/405 on an operational route (a readiness 503 names its check).
 */
export function answerError(exception: unknown, req: Request, res: Response): void {
  if (surfaceOf(req.path) === 'other' && exception instanceof HttpException && kindOfHttpStatus(exception.getStatus()) !== 'not_found') {
    // health and other operational routes answer Nest's own body (e.g. which readiness check failed);
    // an unknown route outside /api and /v1 (`GET /nope`) is answered in the action shape below
    noteAnsweredError(res, exception.message);
    res.status(exception.getStatus()).json(exception.getResponse());
    return;
  }
  if (exception instanceof RateLimitedError) res.setHeader('Retry-After', String(exception.retryAfterS));
  const { kind, message } = classify(exception, req);
  sendError(res, surfaceOf(req.path), kind, message);
}

/** The request id `requestLog` gave the request (its lines carry no request context by themselves). */
const requestIdText = (req: Request) => String((req as Request & { id?: unknown }).id ?? '-');

function classify(exception: unknown, req: Request): { kind: ErrorKind | 'server'; message: string } {
  if (exception instanceof DomainError) return { kind: exception.kind, message: exception.message };
  if (exception instanceof HttpException) {
    // Nest turns Express' URIError for a path that does not percent-decode (`/v1/jobs/%FF`) into a
    // 400 "Failed to decode param …": no route or id can be named so — an unknown one (CONTRACTS.md "Ids")
    const undecodable = exception.getStatus() === 400 && exception.message.startsWith('Failed to decode param');
    const kind = undecodable ? 'not_found' : kindOfHttpStatus(exception.getStatus());
    if (kind === 'not_found') {
      return {
        kind,
        message: surfaceOf(req.path) === 'action' ? `unknown action ${req.path.slice(5)}` : `route not found: ${req.method} ${req.path}`,
      };
    }
    if (kind) return { kind, message: exception.message };
  }
  if (isDatabaseUnavailable(exception)) {
    errorsLogger.error(`database unavailable (request ${requestIdText(req)}): ${(exception as Error).message}`);
    return { kind: 'unavailable', message: 'service temporarily unavailable, retry later' };
  }
  const errorId = randomUUID();
  errorsLogger.error(`error ${errorId} on ${req.method} ${req.path} (request ${requestIdText(req)}): ${(exception as Error)?.stack ?? String(exception)}`);
  return { kind: 'server', message: `internal error (id ${errorId})` };
}

/**
 * Writes an error in the surface's shape, noting its text for the request's log line. Also used by
 * the body-parser error handler.
 */
export function sendError(res: Response, surface: Surface, kind: ErrorKind | 'server', message: string): void {
  const { status, http } = kind === 'server' ? { status: -99, http: 500 } : statusOf(kind);
  if (res.headersSent) return;
  noteAnsweredError(res, message);
  // a share link opened by a browser is a page: its error too (the same status)
  if (surface === 'public' && prefersHtml(res.req)) res.status(http).vary('Accept').type('html').send(renderErrorPage(http, message));
  else if (surface === 'connector') sendJson(res, kind === 'server' ? 500 : connectorHttpOf(kind), { error: { message } });
  else sendJson(res, http, { status, error: message });
}

/** `res.status(statusCode).json(body)`, without the ETag where no client can use one (a POST's answer: {@link sendsJsonWithoutEtag}). */
function sendJson(res: Response, statusCode: number, body: object): void {
  if (sendsJsonWithoutEtag(res, statusCode)) sendJsonText(res, JSON.stringify(body), statusCode);
  else res.status(statusCode).json(body);
}
