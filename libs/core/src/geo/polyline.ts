import polyline from '@mapbox/polyline';
import { LatLng, normalizeDeg } from './geodesic';

/** Google's precision: coordinates rounded to 1e-5 degree (~1.1 m). */
export const POLYLINE_PRECISION = 5;

/**
 * Encodes positions in Google's Encoded Polyline Algorithm Format, precision 5, `lat,lng` order
 * (https://developers.google.com/maps/documentation/utilities/polylinealgorithm), through
 * `@mapbox/polyline`. Each coordinate is rounded to 1e-5 degree (Python 2 rounding, as Google's
 * reference does). `[]` → `""`.
 */
export function encodePolyline(points: readonly LatLng[]): string {
  return polyline.encode(
    points.map((p) => [p.lat, p.lng]),
    POLYLINE_PRECISION,
  );
}

/**
 * Decodes Google's Encoded Polyline Algorithm Format (precision 5, `lat,lng`) through
 * `@mapbox/polyline`. The input is not validated: a malformed string decodes to garbage, not an error
 * (it comes from our own encoder).
 */
export function decodePolyline(encoded: string): LatLng[] {
  return polyline.decode(encoded, POLYLINE_PRECISION).map(([lat, lng]) => ({ lat, lng }));
}

/**
 * Encodes integers as a one-dimensional polyline: each value as its difference from the previous one
 * (the first from 0), in the polyline's signed variable-length encoding — the value shifted left one
 * bit and inverted when negative, cut into 5-bit chunks from the lowest, each but the last OR-ed with
 * 0x20, plus 63 (Google's algorithm, steps 2 and 4–11, without the ×1e5 of coordinates). A
 * coordinate polyline is the same encoding with the two coordinates interleaved. `@mapbox/polyline`
 * encodes only pairs, hence these few lines.
 * @throws RangeError for a value that is not a safe integer.
 */
export function encodeIntegers(values: readonly number[]): string {
  let out = '';
  let previous = 0;
  for (const value of values) {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer: ${value}`);
    let v = value - previous;
    previous = value;
    // zigzag: 0, -1, 1, -2 … → 0, 1, 2, 3 … (arithmetic, not bit operators: deltas may pass 2^31)
    v = v < 0 ? -2 * v - 1 : 2 * v;
    while (v >= 0x20) {
      out += String.fromCharCode((0x20 | (v % 0x20)) + 63);
      v = Math.floor(v / 0x20);
    }
    out += String.fromCharCode(v + 63);
  }
  return out;
}

/**
 * Decodes {@link encodeIntegers}' format.
 * @throws RangeError when the string ends inside a value or holds a character outside `?`…`~`.
 */
export function decodeIntegers(encoded: string): number[] {
  const values: number[] = [];
  let current = 0;
  let i = 0;
  while (i < encoded.length) {
    let result = 0;
    let scale = 1;
    let chunk: number;
    do {
      if (i >= encoded.length) throw new RangeError('encoded integers end inside a value');
      chunk = encoded.charCodeAt(i++) - 63;
      if (chunk < 0 || chunk > 0x3f) throw new RangeError(`not a polyline character at ${i - 1}`);
      result += (chunk & 0x1f) * scale;
      scale *= 0x20;
    } while (chunk >= 0x20);
    current += result % 2 ? -(result + 1) / 2 : result / 2;
    values.push(current);
  }
  return values;
}

/**
 * A track's `course_encoded` (CONTRACTS.md "Tracks"): the headings in degrees clockwise from north,
 * each rounded to a whole degree and folded into [0, 360) (359.6 → 0), in {@link encodeIntegers}'
 * encoding.
 */
export function encodeHeadings(headingsDeg: readonly number[]): string {
  return encodeIntegers(headingsDeg.map((h) => normalizeDeg(Math.round(h))));
}
