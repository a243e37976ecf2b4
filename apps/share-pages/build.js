#!/usr/bin/env node
// Bundles the share pages' script and styles (apps/share-pages/src/main.ts, Leaflet included) with
// esbuild into dist/share-pages/: content-hashed file names and manifest.json
// ({"js": "share-<hash>.js", "css": "share-<hash>.css"}), which the api reads to link them
// (apps/api/src/share/share-assets.ts). Run by `npm run build` after the TypeScript build.
const path = require('node:path');
const fs = require('node:fs');
const zlib = require('node:zlib');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..', '..');
const outdir = path.join(root, 'dist', 'share-pages');

async function main() {
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    entryPoints: { share: path.join(__dirname, 'src', 'main.ts') },
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'iife',
    target: ['es2020'],
    outdir,
    entryNames: '[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    // Leaflet's stylesheet names its control images
    loader: { '.png': 'file', '.svg': 'file' },
    metafile: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => path.relative(outdir, path.resolve(root, f)));
  const js = outputs.find((f) => /^share-[^/]+\.js$/.test(f));
  const css = outputs.find((f) => /^share-[^/]+\.css$/.test(f));
  if (!js || !css) throw new Error(`share pages: no script or stylesheet among ${outputs.join(', ')}`);
  fs.writeFileSync(path.join(outdir, 'manifest.json'), `${JSON.stringify({ js, css }, null, 2)}\n`);
  const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(outdir, f))).length;
  console.log(`share pages: ${js} ${(gz(js) / 1024).toFixed(1)} kB gzip, ${css} ${(gz(css) / 1024).toFixed(1)} kB gzip → dist/share-pages`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
