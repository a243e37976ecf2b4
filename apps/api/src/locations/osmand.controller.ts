import { AppConfig, DomainError, invalid } from '@app/core';
import { decodeOsmAnd, Fix, IngestService, isFixProblem, osmandFieldName, validateFix } from '@app/locations';
import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Request, Response } from 'express';
import { RateLimitService } from '../ops/rate-limit.service';

/**
 * `/osmand` (GET or POST): the OsmAnd protocol of the Traccar Client phone app (CONTRACTS.md
 * "Traccar Client / OsmAnd"), outside `/api` and `/v1`. The device id is the credential: the member
 * holding it (`members.device_id`, active) is who reports, found by the ingest statement itself. 200 with an empty body on success; unknown device
 * → 404 for JSON bodies, 400 otherwise (Traccar's own answers); a bad value → 400 naming it; 429 past
 * the device's per-minute budget (the per-key one).
 */
@Controller()
export class OsmAndController {
  constructor(
    private readonly ingest: IngestService,
    private readonly rateLimit: RateLimitService,
    private readonly config: AppConfig,
  ) {}

  @Get('osmand')
  @HttpCode(200)
  get(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.handle(req, res);
  }

  @Post('osmand')
  @HttpCode(200)
  post(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.handle(req, res);
  }

  private async handle(req: Request, res: Response): Promise<void> {
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
      const fix = validateFix(decoded.fix, { now, retentionMs: this.config.LOCATION_RETENTION_DAYS * 86_400_000 });
      if (isFixProblem(fix)) throw invalid(osmandFieldName(fix.field, decoded.format), fix.rule);
      fixes.push(fix);
    }
    await this.rateLimit.chargeDevice(decoded.deviceId);
    // the device lookup is part of the ingest statement: an unknown (or deactivated) device stores nothing
    const stored = await this.ingest.ingestDevice(decoded.deviceId, fixes, now);
    if (!stored) {
      await this.rateLimit.chargeIp(req.ip ?? 'unknown');
      const message = `unknown device: ${decoded.deviceId}`;
      throw decoded.format === 'json' ? new DomainError('not_found', message) : invalid('id', message);
    }
    res.status(200).end();
  }
}
