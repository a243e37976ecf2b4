import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Fix, parseGpxFixes } from '@app/locations';
import { GPX_FIXTURES_DIR } from './fixtures-dir';

export { parseGpxFixes };

/** The three real traces of `test/fixtures/gpx` (README there). */
export const GPX_TRACES = ['around-visnjan-with-car.gpx', 'cerknicko-jezero.gpx', 'korita-zbevnica.gpx'] as const;

/** {@link parseGpxFixes} of a trace of `test/fixtures/gpx`. */
export function readGpxFixes(file: string): Fix[] {
  return parseGpxFixes(readFileSync(path.join(GPX_FIXTURES_DIR, file), 'utf8'));
}
