import { AppConfig, DomainError, invalid } from '@app/core';
import { decodeOsmAnd, Fix, isFixProblem, OsmandGroupCommit, osmandFieldName, validateFix } from '@app/locations';
import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Request, Response } from 'express';
import { answerError } from '../envelope/exception.filter';
import { redactLoggedError } from '../ops/logging';
import { RateLimitService } from '../ops/rate-limit.service';

/** The device id in the answer to an unknown device (`unknown device: <id>`), for the log line. */
const UNKNOWN_DEVICE = /(unknown device: ).*/;

/** The path Traccar Client is pointed at. */
export const OSMAND_PATH = '/osmand';

/**
 * `/osmand` (GET or POST): the OsmAnd protocol of the Traccar Client phone app (CONTRACTS.md
 * "Traccar Client / OsmAnd"), outside `/api` and `/v1`. The device id is the credential: the member
 * holding it (`members.device_id`, active) is who reports, found by the ingest statement itself.
 * 200 with an empty body on success; unknown device → 404 for JSON bodies, 400 otherwise (Traccar's
 * own answers); a bad value → 400 naming it; 429 past the device's per-minute budget (the per-key one).
 *
 * A plain Express route mounted before Nest's router (`docs/locations-ingest.md`, *Lean route*): a
 * device protocol needs none of Nest's per-request machinery (guards, pipes, interceptors, the
 * router's execution context), which cost more than the request's own work. It keeps what the Nest
 * route had: the body parsers (mounted before it), the metrics (route label `/osmand`), errors in the
 * exception filter's shape ({@link answerError}), `X-Request-Id` and one request log line with the
 * device id redacted, in the URL and in the error text (ops/logging `requestLog`, the first middleware).
 */
export function mountOsmAnd(app: INestApplication): void {
  const ingest = app.get(OsmandGroupCommit);
  const rateLimit = app.get(RateLimitService);
  const retentionMs = app.get(AppConfig).LOCATION_RETENTION_DAYS * 86_400_000;

  const handle = async (req: Request, res: Response): Promise<void> => {
    const now = Date.now();
    const decoded = decodeOsmAnd({
      query: req.query as Record<string, unknown>,
      body: req.body,
      contentType: req.headers['content-type'],
      now,
    });
    if (!decoded.ok) throw invalid(decoded.field, decoded.rule);
    const fixes: Fix[] = [];
    if (decoded.fix) {
      const fix = validateFix(decoded.fix, { now, retentionMs });
      if (isFixProblem(fix)) throw invalid(osmandFieldName(fix.field, decoded.format), fix.rule);
      fixes.push(fix);
    }
    await rateLimit.chargeDevice(decoded.deviceId);
    // the device lookup is part of the ingest statement: an unknown (or deactivated) device stores nothing
    const stored = await ingest.ingestDevice(decoded.deviceId, fixes, now);
    if (!stored) {
      await rateLimit.chargeIp(req.ip ?? 'unknown');
      const message = `unknown device: ${decoded.deviceId}`;
      throw decoded.format === 'json' ? new DomainError('not_found', message) : invalid('id', message);
    }
    res.status(200).end();
  };

  const route = (req: Request, res: Response): void => {
    // the request line (ops/logging requestLog) redacts the device id in the URL; an unknown
    // device's error text names the id too
    redactLoggedError(res, (error) => error.replace(UNKNOWN_DEVICE, '$1[redacted]'));
    handle(req, res).catch((err: unknown) => answerError(err, req, res));
  };
  const server = (app as NestExpressApplication).getHttpAdapter().getInstance() as {
    get(path: string, h: typeof route): void;
    post(path: string, h: typeof route): void;
  };
  server.get(OSMAND_PATH, route);
  server.post(OSMAND_PATH, route);
}
