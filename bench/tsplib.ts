/**
 * TSPLIB reading for the route benchmark (G. Reinelt, "TSPLIB — A Traveling Salesman Problem
 * Library", ORSA J. Computing 3(4), 376–384, 1991; distance functions as in its documentation
 * "TSPLIB 95", §2.1 EUC_2D and §2.4 GEO). The proven optima hold only under these functions.
 */
import fs from 'node:fs';
import type { DistanceMatrix } from '@app/dispatch/pure';

export interface TsplibInstance {
  name: string;
  type: 'EUC_2D' | 'GEO';
  xy: Array<[number, number]>;
}

/** Parses a `.tsp` file with a NODE_COORD_SECTION (EUC_2D or GEO). */
export function readTsplib(file: string): TsplibInstance {
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
  let name = '';
  let type = '';
  const xy: Array<[number, number]> = [];
  let inCoords = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    if (inCoords) {
      if (line === 'EOF') break;
      const [, x, y] = line.split(/\s+/);
      xy.push([Number(x), Number(y)]);
      continue;
    }
    const kv = /^([A-Z_]+)\s*:\s*(.*)$/.exec(line);
    if (kv?.[1] === 'NAME') name = kv[2];
    else if (kv?.[1] === 'EDGE_WEIGHT_TYPE') type = kv[2];
    else if (line === 'NODE_COORD_SECTION') inCoords = true;
  }
  if (type !== 'EUC_2D' && type !== 'GEO') throw new Error(`${file}: EDGE_WEIGHT_TYPE ${type} not supported`);
  return { name, type, xy };
}

/** TSPLIB's `nint`: (int)(x + 0.5). */
const nint = (x: number) => Math.floor(x + 0.5);

/** GEO's DDD.MM reading: degrees + minutes·5/3 (100ths of a degree), radians with TSPLIB's PI = 3.141592. */
function geoRadians(x: number): number {
  const PI = 3.141592;
  const deg = Math.trunc(x);
  const min = x - deg;
  return (PI * (deg + (5.0 * min) / 3.0)) / 180.0;
}

/** The instance's distance matrix under TSPLIB's own function (integers). */
export function tsplibMatrix(inst: TsplibInstance): DistanceMatrix {
  const n = inst.xy.length;
  const d = new Float64Array(n * n);
  const lat = inst.xy.map(([x]) => geoRadians(x));
  const lng = inst.xy.map(([, y]) => geoRadians(y));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let v: number;
      if (inst.type === 'EUC_2D') {
        const dx = inst.xy[i][0] - inst.xy[j][0];
        const dy = inst.xy[i][1] - inst.xy[j][1];
        v = nint(Math.sqrt(dx * dx + dy * dy));
      } else {
        const RRR = 6378.388;
        const q1 = Math.cos(lng[i] - lng[j]);
        const q2 = Math.cos(lat[i] - lat[j]);
        const q3 = Math.cos(lat[i] + lat[j]);
        v = Math.trunc(RRR * Math.acos(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)) + 1.0);
      }
      d[i * n + j] = v;
      d[j * n + i] = v;
    }
  }
  return { n, d };
}
