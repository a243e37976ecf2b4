import fc from 'fast-check';
import { distanceM, haversineM, initialBearingDeg, MEAN_EARTH_RADIUS_M, normalizeDeg, withinM } from './geodesic';

describe('distanceM / initialBearingDeg (Karney, WGS84)', () => {
  // GeographicLib's documented example (GeodSolve(1) and the JS package's README): JFK (40.6, -73.8)
  // to LHR (51.6, -0.5) is 5551759.400319 m with azi1 51.198882845°
  it('JFK–LHR as GeographicLib documents it', () => {
    const jfk = { lat: 40.6, lng: -73.8 };
    const lhr = { lat: 51.6, lng: -0.5 };
    expect(distanceM(jfk, lhr)).toBeCloseTo(5551759.400319, 5);
    expect(initialBearingDeg(jfk, lhr)).toBeCloseTo(51.198882845, 8);
    expect(distanceM(lhr, jfk)).toBeCloseTo(5551759.400319, 5);
  });

  // GeodSolve(1)'s example: JFK 40:38:23N 073:46:44W to Singapore Changi 01:21:33N 103:59:22E →
  // 003:18:29.9 177:29:09.2 15347628 (m)
  it('JFK–SIN as GeodSolve documents it', () => {
    const jfk = { lat: 40 + 38 / 60 + 23 / 3600, lng: -(73 + 46 / 60 + 44 / 3600) };
    const sin = { lat: 1 + 21 / 60 + 33 / 3600, lng: 103 + 59 / 60 + 22 / 3600 };
    expect(Math.round(distanceM(jfk, sin))).toBe(15347628);
    expect(initialBearingDeg(jfk, sin)).toBeCloseTo(3 + 18 / 60 + 29.9 / 3600, 4);
  });

  // GeographicLib's test set (GeodTest.dat, the first case of the JS package's geodesictest.js)
  it('a case from GeographicLib’s own test set', () => {
    const s12 = distanceM({ lat: 35.60777, lng: -139.44815 }, { lat: -11.17491, lng: -69.95921 });
    expect(Math.abs(s12 - 8935244.56048183)).toBeLessThan(1e-6);
    expect(initialBearingDeg({ lat: 35.60777, lng: -139.44815 }, { lat: -11.17491, lng: -69.95921 })).toBeCloseTo(111.09874842956033, 10);
  });

  it('one degree of latitude at the equator and at the pole (the ellipsoid, not a sphere)', () => {
    // the length of a degree of latitude on WGS84: 110.574 km at the equator, 111.694 km at the pole
    expect(Math.abs(distanceM({ lat: 0, lng: 0 }, { lat: 1, lng: 0 }) - 110574)).toBeLessThan(0.5);
    expect(Math.abs(distanceM({ lat: 89, lng: 0 }, { lat: 90, lng: 0 }) - 111694)).toBeLessThan(0.5);
  });

  // Karney (2013), the worked inverse example of §4: φ1 = −30°, φ2 = 29.9°, λ12 = 179.8° (nearly
  // antipodal, where Vincenty's method fails to converge) → α1 = 161.890524°, s12 = 19989832.827610 m
  it('nearly antipodal points: Karney’s worked example; coincident points are 0 m', () => {
    expect(distanceM({ lat: -30, lng: 0 }, { lat: 29.9, lng: 179.8 })).toBeCloseTo(19989832.82761, 5);
    expect(initialBearingDeg({ lat: -30, lng: 0 }, { lat: 29.9, lng: 179.8 })).toBeCloseTo(161.890524, 5);
    expect(distanceM({ lat: 46.05, lng: 14.5 }, { lat: 46.05, lng: 14.5 })).toBe(0);
  });

  it('bearings are in [0, 360)', () => {
    expect(initialBearingDeg({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBe(0);
    expect(initialBearingDeg({ lat: 0, lng: 0 }, { lat: 0, lng: 1 })).toBeCloseTo(90, 12);
    expect(initialBearingDeg({ lat: 1, lng: 0 }, { lat: 0, lng: 0 })).toBeCloseTo(180, 12);
    expect(initialBearingDeg({ lat: 0, lng: 1 }, { lat: 0, lng: 0 })).toBeCloseTo(270, 12);
    // across the antimeridian: west of 180 to east of -180 heads east
    expect(initialBearingDeg({ lat: 0, lng: 179.9 }, { lat: 0, lng: -179.9 })).toBeCloseTo(90, 12);
  });
});

describe('haversineM (sphere of the mean radius)', () => {
  it('a quarter of a great circle is πR/2', () => {
    expect(haversineM({ lat: 0, lng: 0 }, { lat: 0, lng: 90 })).toBeCloseTo((Math.PI * MEAN_EARTH_RADIUS_M) / 2, 6);
    expect(haversineM({ lat: 0, lng: 0 }, { lat: 90, lng: 0 })).toBeCloseTo((Math.PI * MEAN_EARTH_RADIUS_M) / 2, 6);
  });

  it('agrees with the spherical law of cosines on the same sphere', () => {
    const jfk = { lat: 40.6, lng: -73.8 };
    const lhr = { lat: 51.6, lng: -0.5 };
    const r = Math.PI / 180;
    const cosines =
      MEAN_EARTH_RADIUS_M *
      Math.acos(
        Math.sin(jfk.lat * r) * Math.sin(lhr.lat * r) + Math.cos(jfk.lat * r) * Math.cos(lhr.lat * r) * Math.cos((lhr.lng - jfk.lng) * r),
      );
    expect(Math.abs(haversineM(jfk, lhr) / cosines - 1)).toBeLessThan(1e-12);
  });

  it('differs from the geodesic by under 0.6 %: JFK–LHR −0.27 % (5536892 m vs 5551759 m), a degree of latitude at the equator +0.56 %', () => {
    const jfk = { lat: 40.6, lng: -73.8 };
    const lhr = { lat: 51.6, lng: -0.5 };
    expect(Math.round(haversineM(jfk, lhr))).toBe(5536892);
    expect(haversineM(jfk, lhr) / distanceM(jfk, lhr) - 1).toBeCloseTo(-0.00268, 4);
    const eq = { lat: 0, lng: 0 };
    const north = { lat: 1, lng: 0 };
    expect(haversineM(eq, north) / distanceM(eq, north) - 1).toBeCloseTo(0.00558, 4);
  });

  it('is symmetric, 0 for coincident points, and short distances stay accurate', () => {
    const a = { lat: 46.0569, lng: 14.5058 };
    const b = { lat: 46.0579, lng: 14.5068 };
    expect(haversineM(a, b)).toBe(haversineM(b, a));
    expect(haversineM(a, a)).toBe(0);
    expect(Math.abs(haversineM(a, b) / distanceM(a, b) - 1)).toBeLessThan(0.005);
  });
});

describe('normalizeDeg', () => {
  it('folds into [0, 360)', () => {
    expect([0, 360, 720, -90, -360, 359.5, 450, -0].map(normalizeDeg)).toEqual([0, 0, 0, 270, 0, 359.5, 90, 0]);
    expect(Object.is(normalizeDeg(-0), 0)).toBe(true);
  });
});

describe('withinM', () => {
  it('answers exactly distanceM(a, b) <= r: random pairs near the radius, across the antimeridian and near the poles', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -89.9, max: 89.9, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 1, max: 5000, noNaN: true }),
        fc.double({ min: 0.9, max: 1.1, noNaN: true }),
        (lat, lng, bearing, r, k) => {
          // a point about k·r away (a spherical step: the exact geodesic decides, not this estimate)
          const d = (k * r) / MEAN_EARTH_RADIUS_M;
          const lat2 = Math.max(-90, Math.min(90, lat + (d * Math.cos(bearing) * 180) / Math.PI));
          let lng2 = lng + ((d * Math.sin(bearing)) / Math.max(0.01, Math.cos((lat * Math.PI) / 180))) * (180 / Math.PI);
          if (lng2 > 180) lng2 -= 360;
          if (lng2 < -180) lng2 += 360;
          const a = { lat, lng };
          const b = { lat: lat2, lng: lng2 };
          expect(withinM(a, b, r)).toBe(distanceM(a, b) <= r);
        },
      ),
      { numRuns: 20_000 },
    );
  });
});
