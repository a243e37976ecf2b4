import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { INestApplication, Logger } from '@nestjs/common';
import express from 'express';

/** Where the share pages' bundled script and stylesheet are served from (our origin, no CDN). */
export const SHARE_ASSETS_PATH = '/share/assets';

/** The bundle's file names (content-hashed), as apps/share-pages/build.js writes them in manifest.json. */
export interface ShareAssetNames {
  js: string;
  css: string;
}

/** The repository root: the nearest folder above this file holding a package.json (source or dist/ alike). */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
  return dir;
}

/** dist/share-pages of this checkout: the output of `npm run build` (apps/share-pages/build.js). */
export const SHARE_ASSETS_DIR = path.join(repoRoot(), 'dist', 'share-pages');

let cached: ShareAssetNames | null | undefined;

/**
 * The bundle's file names, read once from dist/share-pages/manifest.json; null when the share pages
 * were not built (the pages are then served without their map, their text intact).
 */
export function shareAssets(): ShareAssetNames | null {
  if (cached !== undefined) return cached;
  try {
    const manifest = JSON.parse(readFileSync(path.join(SHARE_ASSETS_DIR, 'manifest.json'), 'utf8')) as Partial<ShareAssetNames>;
    cached = typeof manifest.js === 'string' && typeof manifest.css === 'string' ? { js: manifest.js, css: manifest.css } : null;
  } catch {
    cached = null;
  }
  if (!cached) new Logger('SharePages').warn(`no share page bundle in ${SHARE_ASSETS_DIR} (run npm run build): pages are served without their map`);
  return cached;
}

/** The URL of a bundle file. */
export const shareAssetUrl = (file: string) => `${SHARE_ASSETS_PATH}/${file}`;

/**
 * Serves dist/share-pages at {@link SHARE_ASSETS_PATH}: content-hashed names, so cached for a year as
 * immutable; no directory listings, no index files; an unknown file falls through to the router (a
 * 404 in the share links' shape). Mounted before Nest's router.
 */
export function mountShareAssets(app: INestApplication): void {
  app.use(
    SHARE_ASSETS_PATH,
    express.static(SHARE_ASSETS_DIR, { index: false, immutable: true, maxAge: '365d', dotfiles: 'ignore', redirect: false }),
  );
}
