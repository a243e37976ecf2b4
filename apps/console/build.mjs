// Builds the dispatcher's console (docs/console.md) into dist/console with esbuild: one script and one
// style sheet with content-hashed names (plus Leaflet's few images), each with a gzip twin the api
// serves to clients that take gzip, and index.html naming them. Run by `npm run build` (after tsc).
// `--watch` rebuilds on change (npm run dev does not need it: it builds once).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const out = join(root, 'dist', 'console');

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { console: join(here, 'src', 'main.ts') },
  bundle: true,
  minify: true,
  sourcemap: 'linked',
  format: 'esm',
  target: ['chrome109', 'firefox115', 'safari16'],
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  loader: { '.png': 'file', '.svg': 'file' },
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => resolve(root, p));
// the page's icon (a browser asks for one; without it, a 404 per page load)
const icon = readFileSync(join(here, 'icon.svg'));
const iconFile = join(out, 'assets', `icon-${createHash('sha256').update(icon).digest('hex').slice(0, 8)}.svg`);
writeFileSync(iconFile, icon);
outputs.push(iconFile);
const named = (re) => {
  const file = outputs.find((p) => re.test(basename(p)));
  if (!file) throw new Error(`console build: no output matching ${re}`);
  return `/console/assets/${basename(file)}`;
};
const page = readFileSync(join(here, 'index.html'), 'utf8')
  .replace('%SCRIPT%', named(/^console-.*\.js$/))
  .replace('%STYLE%', named(/^console-.*\.css$/))
  .replace('%ICON%', named(/^icon-.*\.svg$/));
writeFileSync(join(out, 'index.html'), page);

let gzipped = 0;
for (const file of outputs) {
  const raw = readFileSync(file);
  const gz = gzipSync(raw, { level: 9 });
  // a twin only where it is smaller (not for the png images)
  if (gz.length < raw.length * 0.9) writeFileSync(`${file}.gz`, gz);
  if (!file.endsWith('.map')) gzipped += Math.min(gz.length, raw.length);
}
console.log(`console: ${outputs.filter((p) => !p.endsWith('.map')).length} assets, ${(gzipped / 1024).toFixed(1)} kB gzip`);
