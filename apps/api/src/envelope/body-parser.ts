import { ErrorKind } from '@app/core';
import { INestApplication } from '@nestjs/common';
import { json, NextFunction, Request, Response, urlencoded } from 'express';
import { sendError, surfaceOf } from './exception.filter';

/** Request bodies above this are refused with 413 in the surface's shape. */
export const BODY_LIMIT = '5mb';

/**
 * JSON body parsing for both surfaces, with parse and size errors answered in the surface's shape
 * (malformed JSON → -1/400 before anything else; over 5 MB → 413), with `X-Request-Id` and a
 * request log line like every other answer.
 */
export function useJsonBodies(app: INestApplication): void {
  // strict: false — `5` or `"x"` is valid JSON, so it is refused by the guards after authentication
  // (CONTRACTS.md order), not here as malformed
  app.use(json({ limit: BODY_LIMIT, strict: false, type: ['application/json', 'application/*+json'] }));
  // Traccar Client's form bodies on /osmand: any content type but JSON is read as parameters (the
  // older client posts `application/x-www-form-urlencoded`, some forks `text/plain`)
  app.use(
    '/osmand',
    urlencoded({ extended: false, limit: '64kb', parameterLimit: 100, type: (req) => !/json/i.test(req.headers['content-type'] ?? '') }),
  );
  app.use((err: BodyError, req: Request, res: Response, next: NextFunction) => {
    const answer = answerOf(err);
    if (!answer) return next(err);
    sendError(res, surfaceOf(req.path), answer.kind, answer.message);
  });
}

/** What body-parser passes on for a body it cannot read. */
interface BodyError {
  type?: string;
  status?: number;
  message?: string;
}

/** The error answer for a body-parser failure, or undefined for an error that is not one. */
function answerOf(err: BodyError | undefined): { kind: ErrorKind; message: string } | undefined {
  if (err?.type === 'entity.too.large' || err?.status === 413) return { kind: 'too_large', message: `body: larger than ${BODY_LIMIT}` };
  if (err?.type === 'entity.parse.failed' || err?.status === 400) return { kind: 'invalid', message: 'body: malformed JSON' };
  if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported' || err?.status === 415) {
    return { kind: 'invalid', message: `body: ${err.message ?? 'unsupported encoding'}` };
  }
  return undefined;
}
