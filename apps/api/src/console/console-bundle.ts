import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';

/** Content types of the files the console's build writes (apps/console/build.mjs). */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/** One built asset: its path on disk, type, and its gzip twin when the build wrote one. */
export interface ConsoleAsset {
  path: string;
  type: string;
  gzipPath: string | null;
}

/**
 * The console as `npm run build` wrote it to `<repo>/dist/console` (found from this file upwards, so the
 * api run from `dist/` and from sources in tests find the same build): `index.html` and `assets/`
 * (content-hashed names, each with a `.gz` twin). Read at the first request, and again when
 * `index.html` changed since (a rebuild while the api runs: the old hashed names are gone).
 */
export class ConsoleBundle {
  private loaded?: { html: string; assets: Map<string, ConsoleAsset>; mtimeMs: number } | null;

  constructor(private readonly dir: string | null = findConsoleDir()) {}

  /** The page template, or null when the console was not built. */
  html(): string | null {
    if (this.loaded && this.mtime() !== this.loaded.mtimeMs) this.loaded = undefined;
    return this.load()?.html ?? null;
  }

  private mtime(): number {
    try {
      return statSync(join(this.dir ?? '', 'index.html')).mtimeMs;
    } catch {
      return -1;
    }
  }

  /** A built asset by file name (names outside the build's list are unknown: no path walks). */
  asset(name: string): ConsoleAsset | undefined {
    return this.load()?.assets.get(name);
  }

  private load() {
    if (this.loaded !== undefined) return this.loaded;
    if (!this.dir || !existsSync(join(this.dir, 'index.html'))) return (this.loaded = null);
    const assetsDir = join(this.dir, 'assets');
    const files = existsSync(assetsDir) ? readdirSync(assetsDir) : [];
    const names = new Set(files);
    const assets = new Map<string, ConsoleAsset>();
    for (const name of files) {
      const type = TYPES[extname(name)];
      if (!type) continue;
      assets.set(name, { path: join(assetsDir, name), type, gzipPath: names.has(`${name}.gz`) ? join(assetsDir, `${name}.gz`) : null });
    }
    return (this.loaded = { html: readFileSync(join(this.dir, 'index.html'), 'utf8'), assets, mtimeMs: this.mtime() });
  }
}

/** `<repo>/dist/console`: the first folder upwards from `from` that holds a package.json, plus `dist/console`. */
export function findConsoleDir(from = __dirname): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'console');
    if (dirname(dir) === dir) return null;
  }
}
