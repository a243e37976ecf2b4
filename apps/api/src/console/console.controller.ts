import { AppConfig } from '@app/core';
import { Controller, Get, Inject, NotFoundException, Param, Req, Res, ServiceUnavailableException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleBundle } from './console-bundle';
import { consoleCsp } from './console-csp';

/** Where the built page expects the server's settings (apps/console/index.html). */
const CONFIG_SLOT = '<!--fieldwork-config-->';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The dispatcher's console (CONTRACTS.md "Wave 3: dispatcher console"; docs/console.md): `GET /console`
 * and every deep link under it answer the single page (HTML, not the envelope), `GET
 * /console/assets/<file>` its content-hashed assets (gzip when the client takes it). The page carries
 * its own CSP (our origin, plus the tile host when `CONSOLE_TILE_URL` is set) in place of helmet's.
 * No key here: the page signs in with an API key and calls the ordinary actions and `/v1/stream`.
 */
@Controller('console')
export class ConsoleController {
  constructor(
    private readonly config: AppConfig,
    @Inject(ConsoleBundle) private readonly bundle: ConsoleBundle,
  ) {}

  @Get('assets/:file')
  asset(@Param('file') file: string, @Req() req: Request, @Res() res: Response): void {
    const asset = this.bundle.asset(file);
    if (!asset) throw new NotFoundException(`no console asset ${file}`);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    res.type(asset.type);
    if (asset.gzipPath && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.setHeader('Content-Encoding', 'gzip');
      res.sendFile(asset.gzipPath, { headers: { 'Content-Type': asset.type } });
      return;
    }
    res.sendFile(asset.path);
  }

  @Get()
  page(@Res() res: Response): void {
    this.sendPage(res);
  }

  @Get('*path')
  deepLink(@Res() res: Response): void {
    this.sendPage(res);
  }

  private sendPage(res: Response): void {
    const html = this.bundle.html();
    if (html === null) throw new ServiceUnavailableException('the console is not built: run npm run build');
    const tiles = this.config.CONSOLE_TILE_URL ?? '';
    const settings =
      `<meta name="fieldwork-tile-url" content="${escapeAttr(tiles)}">` +
      `<meta name="fieldwork-tile-attribution" content="${escapeAttr(this.config.CONSOLE_TILE_ATTRIBUTION ?? '')}">`;
    res.setHeader('Content-Security-Policy', consoleCsp(tiles));
    res.setHeader('Cache-Control', 'no-cache');
    res.status(200).type('text/html; charset=utf-8').send(html.replace(CONFIG_SLOT, settings));
  }
}
