import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { Fix } from '@app/locations';
import { SHARED_GPX_DIR } from './shared-data';

/** The three real traces of `shared/data/gpx` (README there). */
export const GPX_TRACES = ['around-visnjan-with-car.gpx', 'cerknicko-jezero.gpx', 'korita-zbevnica.gpx'] as const;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  isArray: (name) => ['trk', 'trkseg', 'trkpt'].includes(name),
});

/**
 * The timed track points of a GPX 1.0/1.1 text (every `trk/trkseg/trkpt` with a `<time>`), as fixes in
 * document order: `ts` ms, `lat`/`lng` degrees, `elv` m rounded (as stored), the rest unknown. Points
 * without `<time>` cannot be replayed and are left out.
 */
export function parseGpxFixes(xml: string): Fix[] {
  const doc = parser.parse(xml) as { gpx: { trk?: Array<{ trkseg?: Array<{ trkpt?: Array<Record<string, string>> }> }> } };
  const fixes: Fix[] = [];
  for (const trk of doc.gpx.trk ?? []) {
    for (const seg of trk.trkseg ?? []) {
      for (const p of seg.trkpt ?? []) {
        if (!p.time) continue;
        fixes.push({
          ts: Date.parse(p.time),
          lat: Number(p.lat),
          lng: Number(p.lon),
          acc: null,
          dir: null,
          spd: null,
          elv: p.ele !== undefined ? Math.round(Number(p.ele)) : null,
          bat: null,
        });
      }
    }
  }
  return fixes;
}

/** {@link parseGpxFixes} of a trace of `shared/data/gpx`. */
export function readGpxFixes(file: string): Fix[] {
  return parseGpxFixes(readFileSync(path.join(SHARED_GPX_DIR, file), 'utf8'));
}
