import { AppConfig, AuthContext, notFound } from '@app/core';
import { DistributeJobsDto, DistributeService } from '@app/dispatch';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Action, Caller, Data, PublicRoute } from '../envelope/decorators';
import { RateLimitService } from '../ops/rate-limit.service';
import { renderClustersPage } from '../share/clusters-page';
import { tilesConfig } from '../share/share-html';

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
  description: 'the regions on a self-rendered map: hulls and dots coloured by region, labelled centres with job counts, a legend, a scale bar',
};
const HTML = {
  type: 'text/html',
  description: 'a page drawing the regions on a map as the console does (labelled groups, a legend); names no job or customer',
};

/**
 * distributejobs' map previews: `maplink` is `/share/clusters/<token>.svg` (an SVG, CONTRACTS.md
 * "Dispatch"); `/share/clusters/<token>` is the same preview as a page on a map (tiles when
 * configured). Valid 7 days. No key; charged to the client IP with the unauthenticated budget; an
 * unknown or expired token → 1001/404 JSON (an HTML page for a browser). Positions and counts only.
 */
@Controller('share/clusters')
export class ClusterMapShareController {
  constructor(
    private readonly distribute: DistributeService,
    private readonly rateLimit: RateLimitService,
    private readonly config: AppConfig,
  ) {}

  @Get(':token.svg')
  @PublicRoute({ summary: 'a distributejobs map preview (SVG)', produces: SVG })
  async svg(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.rateLimit.chargeIp(req.ip ?? 'unknown');
    const svg = await this.distribute.mapSvg(token);
    if (svg === null) throw notFound('cluster map');
    res.status(200).type(SVG.type).setHeader('Cache-Control', 'private, max-age=3600').send(svg);
  }

  @Get(':token')
  @PublicRoute({ summary: 'a distributejobs map preview (a page with the regions on a map)', produces: HTML })
  async page(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.rateLimit.chargeIp(req.ip ?? 'unknown');
    const map = await this.distribute.mapPreview(token);
    if (map === null) throw notFound('cluster map');
    const html = renderClustersPage({ token, preview: map.regions, tiles: tilesConfig(this.config.CONSOLE_TILE_URL) });
    res.status(200).type('html').setHeader('Cache-Control', 'private, max-age=3600').send(html);
  }
}
