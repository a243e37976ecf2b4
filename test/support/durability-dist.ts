import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './proc-child';

/**
 * A private copy of the BUILT apps (`dist/`, with `node_modules` linked), so a rebuild running
 * meanwhile (which empties `dist/`) can't pull the worker out from under a long test. The copy
 * runs exactly what `npm run build` produced when the test started.
 */
export function snapshotDist(): { path: (script: string) => string; remove: () => void } {
  const source = join(ROOT, 'dist');
  if (!existsSync(join(source, 'apps/worker/src/main.js'))) throw new Error(`no build in ${source}: run npm run build first`);
  const dir = mkdtempSync(join(tmpdir(), 'fieldwork-dist-'));
  cpSync(source, join(dir, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return {
    /** absolute path of `script` (e.g. `dist/apps/worker/src/main.js`) in the copy */
    path: (script: string) => join(dir, script),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
