import { AuthContext, notFound } from '@app/core';
import { DistributeJobsDto, DistributeService } from '@app/dispatch';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Action, Caller, Data, PublicRoute } from '../envelope/decorators';
import { RateLimitService } from '../ops/rate-limit.service';

/** distributejobs (spec "distributejobs"; CONTRACTS.md "Dispatch"): computed by the worker. */
@Controller('api')
export class DistributeController {
  constructor(private readonly distribute: DistributeService) {}

  @Action('distributejobs')
  async distributejobs(@Caller() ctx: AuthContext, @Data() dto: DistributeJobsDto) {
    return { status: 0, ...(await this.distribute.distribute(ctx, dto)) };
  }
}

const SVG = {
  type: 'image/svg+xml',
  description: 'the clusters on a self-rendered map: points coloured by cluster, centres marked, a scale bar',
};

/**
 * distributejobs' `maplink`: `/share/clusters/<token>.svg`, valid 7 days. No key; charged to the
 * client IP with the unauthenticated budget; an unknown or expired token → 1001/404 JSON.
 */
@Controller('share/clusters')
export class ClusterMapShareController {
  constructor(
    private readonly distribute: DistributeService,
    private readonly rateLimit: RateLimitService,
  ) {}

  @Get(':token.svg')
  @PublicRoute({ summary: 'a distributejobs map preview (SVG)', produces: SVG })
  async svg(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.rateLimit.chargeIp(req.ip ?? 'unknown');
    const svg = await this.distribute.mapSvg(token);
    if (svg === null) throw notFound('cluster map');
    res.status(200).type(SVG.type).setHeader('Cache-Control', 'private, max-age=3600').send(svg);
  }
}
