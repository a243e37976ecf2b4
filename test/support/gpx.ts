import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Fix, parseGpxFixes } from '@app/locations';
import { SHARED_GPX_DIR } from './shared-data';

export { parseGpxFixes };

/** The three real traces of `shared/data/gpx` (README there). */
export const GPX_TRACES = ['around-visnjan-with-car.gpx', 'cerknicko-jezero.gpx', 'korita-zbevnica.gpx'] as const;

/** {@link parseGpxFixes} of a trace of `shared/data/gpx`. */
export function readGpxFixes(file: string): Fix[] {
  return parseGpxFixes(readFileSync(path.join(SHARED_GPX_DIR, file), 'utf8'));
}
