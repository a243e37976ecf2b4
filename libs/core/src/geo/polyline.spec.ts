import polyline from '@mapbox/polyline';
import fc from 'fast-check';
import { decodeIntegers, decodePolyline, encodeHeadings, encodeIntegers, encodePolyline } from './polyline';

// Google's documented example (developers.google.com/maps/documentation/utilities/polylinealgorithm)
const GOOGLE_POINTS = [
  { lat: 38.5, lng: -120.2 },
  { lat: 40.7, lng: -120.95 },
  { lat: 43.252, lng: -126.453 },
];
const GOOGLE_ENCODED = '_p~iF~ps|U_ulLnnqC_mqNvxq`@';

describe('encodePolyline / decodePolyline', () => {
  it('Google’s documented example, lat,lng order', () => {
    expect(encodePolyline(GOOGLE_POINTS)).toBe(GOOGLE_ENCODED);
    expect(decodePolyline(GOOGLE_ENCODED)).toEqual(GOOGLE_POINTS);
  });

  it('empty', () => {
    expect(encodePolyline([])).toBe('');
    expect(decodePolyline('')).toEqual([]);
  });

  it('round-trips any points to 1e-5 degree', () => {
    const point = fc.record({
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lng: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 50 }), (points) => {
        const back = decodePolyline(encodePolyline(points));
        expect(back).toHaveLength(points.length);
        back.forEach((p, i) => {
          expect(Math.abs(p.lat - points[i].lat)).toBeLessThanOrEqual(0.5e-5 + 1e-9);
          expect(Math.abs(p.lng - points[i].lng)).toBeLessThanOrEqual(0.5e-5 + 1e-9);
        });
      }),
      { seed: 9, numRuns: 200 },
    );
  });
});

describe('encodeIntegers / decodeIntegers', () => {
  it('Google’s worked value: -179.9832104 at precision 5 is `~oia@', () => {
    expect(encodeIntegers([-17998321])).toBe('`~oia@');
    expect(decodeIntegers('`~oia@')).toEqual([-17998321]);
  });

  it('Google’s example is its six coordinates, interleaved', () => {
    const ints = GOOGLE_POINTS.flatMap((p) => [Math.round(p.lat * 1e5), Math.round(p.lng * 1e5)]);
    // interleaved, each coordinate is a delta from the same coordinate of the point before
    const lats = encodeIntegers(ints.filter((_, i) => i % 2 === 0));
    const lngs = encodeIntegers(ints.filter((_, i) => i % 2 === 1));
    expect(lats).toBe('_p~iF_ulL_mqN');
    expect(lngs).toBe('~ps|UnnqCvxq`@');
  });

  it('agrees with @mapbox/polyline on any integer sequence (as the lat of pairs with lng 0)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -18_000_000, max: 18_000_000 }), { maxLength: 40 }), (values) => {
        const viaPairs = polyline.encode(
          values.map((v) => [v, 0]),
          0,
        );
        // each pair adds the lng delta 0, encoded as '?'
        expect(encodeIntegers(values)).toBe(stripZeroLng(viaPairs));
        expect(decodeIntegers(encodeIntegers(values))).toEqual(values);
      }),
      { seed: 9, numRuns: 300 },
    );
  });

  it('round-trips deltas beyond 32 bits', () => {
    const values = [0, 2 ** 40, -(2 ** 40), 2 ** 50, 5];
    expect(decodeIntegers(encodeIntegers(values))).toEqual(values);
    expect(decodeIntegers(encodeIntegers([2 ** 45, -(2 ** 45)]))).toEqual([2 ** 45, -(2 ** 45)]);
  });

  it('refuses non-integers and malformed strings', () => {
    expect(() => encodeIntegers([1.5])).toThrow(RangeError);
    expect(() => encodeIntegers([NaN])).toThrow(RangeError);
    expect(() => decodeIntegers('_')).toThrow('end inside a value');
    expect(() => decodeIntegers(' ')).toThrow('not a polyline character');
  });
});

describe('encodeHeadings (course_encoded)', () => {
  it('rounds to whole degrees, folds into [0, 360), delta-encodes', () => {
    expect(decodeIntegers(encodeHeadings([0.4, 90.5, 359.6, -10, 180]))).toEqual([0, 91, 0, 350, 180]);
    expect(encodeHeadings([])).toBe('');
    // 0 → '?'; +90: zigzag 180 = 5·32 + 20 → (20|0x20)+63 's', 5+63 'D'; -90: zigzag 179 → 'r', 'D'
    expect(encodeHeadings([0, 90, 0])).toBe('?sDrD');
  });
});

/** `@mapbox/polyline` of `[v, 0]` pairs, without the `?` each pair's zero lng delta adds. */
function stripZeroLng(encoded: string): string {
  let out = '';
  let i = 0;
  while (i < encoded.length) {
    let c: number;
    do {
      c = encoded.charCodeAt(i++) - 63;
      out += String.fromCharCode(c + 63);
    } while (c >= 0x20);
    i++; // the lng: always '?'
  }
  return out;
}
