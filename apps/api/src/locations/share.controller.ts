import { AppConfig, notFound } from '@app/core';
import { publicBaseUrl, toTrackEntry, trackGeoJson, trackGpx, TracksQueryService } from '@app/locations';
import { CompanyService, MembersService } from '@app/members';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PublicRoute } from '../envelope/decorators';
import { RateLimitService } from '../ops/rate-limit.service';
import { prefersHtml, tilesConfig } from '../share/share-html';
import { renderTrackPage } from '../share/track-page';

const GEOJSON = {
  type: 'application/geo+json',
  description: 'the track as an RFC 7946 GeoJSON Feature (LineString of [lng, lat, elevation?])',
};
const GPX = { type: 'application/gpx+xml', description: 'the track as a GPX 1.1 document (one trk, one trkseg)' };
const HTML = {
  type: 'text/html',
  description: 'for a client preferring text/html (a browser): a page with the track on a map, the member and the day',
};

/**
 * Public track links (CONTRACTS.md "Tracks"): `/share/tracks/<token>` — a page with the track on a
 * map for a client preferring HTML (a browser), else GeoJSON (as `.geojson`) — and `.gpx`. No key;
 * charged to the client IP with the unauthenticated budget; an unknown token → 1001/404 JSON (an HTML
 * page for a browser: docs/share-pages.md).
 */
@Controller('share/tracks')
export class ShareController {
  constructor(
    private readonly tracks: TracksQueryService,
    private readonly rateLimit: RateLimitService,
    private readonly config: AppConfig,
    private readonly members: MembersService,
    private readonly companies: CompanyService,
  ) {}

  // the suffixed routes first: `:token` alone would also match `abc.gpx`
  @Get(':token.gpx')
  @PublicRoute({ summary: 'a shared track as GPX 1.1', produces: GPX })
  async gpx(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const { entry, points } = await this.load(token, req);
    res
      .status(200)
      .type(GPX.type)
      .setHeader('Content-Disposition', `attachment; filename="track-${entry.id}.gpx"`)
      .send(trackGpx(entry, points));
  }

  @Get(':token.geojson')
  @PublicRoute({ summary: 'a shared track as GeoJSON', produces: GEOJSON })
  async geojson(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.sendGeoJson(token, req, res);
  }

  @Get(':token')
  @PublicRoute({ summary: 'a shared track: a page with the track on a map for a browser, else GeoJSON', produces: [GEOJSON, HTML] })
  async plain(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.vary('Accept');
    if (prefersHtml(req, GEOJSON.type)) await this.sendPage(token, req, res);
    else await this.sendGeoJson(token, req, res);
  }

  private async sendGeoJson(token: string, req: Request, res: Response): Promise<void> {
    const { entry, points } = await this.load(token, req);
    res
      .status(200)
      .type(GEOJSON.type)
      .send(JSON.stringify(trackGeoJson(entry, points)));
  }

  /** The page: the member's name and units and the company's time zone, read beside the track. */
  private async sendPage(token: string, req: Request, res: Response): Promise<void> {
    const { entry, points, companyId, memberId } = await this.load(token, req);
    const [member, company] = await Promise.all([this.members.findByAccount(companyId, memberId), this.companies.byId(companyId)]);
    const html = renderTrackPage({
      token,
      entry,
      points,
      memberName: member?.name ?? null,
      units: member?.unitDistance ?? 'SI',
      timezone: company?.timezone ?? 'UTC',
      tiles: tilesConfig(this.config.CONSOLE_TILE_URL),
    });
    res.status(200).type('html').setHeader('Cache-Control', 'private, no-cache').send(html);
  }

  private async load(token: string, req: Request) {
    await this.rateLimit.chargeIp(req.ip ?? 'unknown');
    const found = await this.tracks.byShareToken(token);
    if (!found) throw notFound('track share link');
    return {
      entry: toTrackEntry(found.track, publicBaseUrl(this.config)),
      points: found.points,
      companyId: found.track.companyId,
      memberId: found.track.memberId,
    };
  }
}
