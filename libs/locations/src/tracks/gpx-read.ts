import { XMLParser } from 'fast-xml-parser';
import type { Fix } from '../fix';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  isArray: (name) => ['trk', 'trkseg', 'trkpt'].includes(name),
});

/**
 * The timed track points of a GPX 1.0/1.1 document (every `trk/trkseg/trkpt` with a `<time>`;
 * TopoGrafix GPX schema), as fixes in document order: `ts` ms, `lat`/`lng` degrees, `elv` m rounded
 * (as stored), the rest unknown (null). Points without `<time>` cannot be replayed and are left out.
 * Parsed with fast-xml-parser.
 */
export function parseGpxFixes(xml: string): Fix[] {
  const doc = parser.parse(xml) as { gpx?: { trk?: Array<{ trkseg?: Array<{ trkpt?: Array<Record<string, string>> }> }> } };
  const fixes: Fix[] = [];
  for (const trk of doc.gpx?.trk ?? []) {
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
          elv: p.ele !== undefined && p.ele !== '' ? Math.round(Number(p.ele)) : null,
          bat: null,
        });
      }
    }
  }
  return fixes;
}
