import { AppConfig } from '@app/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Res, UnauthorizedException } from '@nestjs/common';
import { Response } from 'express';
import { MetricsRegistry } from './metrics.registry';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * `GET /metrics`: the Prometheus text exposition. Open unless `METRICS_TOKEN` is set, then `Authorization: Bearer <token>` is required (401 otherwise).
 */
@Controller('metrics')
export class MetricsController {
  private readonly token?: Buffer;

  constructor(
    private readonly metrics: MetricsRegistry,
    config: AppConfig,
  ) {
    this.token = config.METRICS_TOKEN ? digest(config.METRICS_TOKEN) : undefined;
  }

  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() res: Response): Promise<void> {
    if (this.token) {
      const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
      if (!m || !timingSafeEqual(digest(m[1]), this.token)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        throw new UnauthorizedException('a valid bearer token is required');
      }
    }
    const body = await this.metrics.registry.metrics();
    res.status(200).type(this.metrics.registry.contentType).send(body);
  }
}
