import { boundingBox, boxContains } from './bounding-box';

describe('boundingBox', () => {
  it('no points → null; one point → a zero box', () => {
    expect(boundingBox([])).toBeNull();
    expect(boundingBox([{ lat: 46.05, lng: 14.5 }])).toEqual({ minLat: 46.05, minLng: 14.5, maxLat: 46.05, maxLng: 14.5 });
  });

  it('min and max of the points', () => {
    expect(
      boundingBox([
        { lat: 46.05, lng: 14.5 },
        { lat: 45.8, lng: 15.97 },
        { lat: 48.2, lng: 16.37 },
        { lat: 41.9, lng: 12.5 },
      ]),
    ).toEqual({ minLat: 41.9, minLng: 12.5, maxLat: 48.2, maxLng: 16.37 });
  });

  it('Sydney and New York: the box runs across the Pacific (135° of longitude), not across the Atlantic (225°)', () => {
    expect(
      boundingBox([
        { lat: -33.87, lng: 151.21 },
        { lat: 40.6, lng: -73.8 },
      ]),
    ).toEqual({ minLat: -33.87, minLng: 151.21, maxLat: 40.6, maxLng: -73.8 });
  });

  it('across the antimeridian: the short way round, minLng > maxLng (RFC 7946 §5.2)', () => {
    // Fiji: Suva (178.44) and Taveuni's east coast (-179.9)
    const box = boundingBox([
      { lat: -18.14, lng: 178.44 },
      { lat: -16.8, lng: -179.9 },
      { lat: -17.5, lng: 179.99 },
    ]);
    expect(box).toEqual({ minLat: -18.14, minLng: 178.44, maxLat: -16.8, maxLng: -179.9 });
    expect(boxContains(box!, { lat: -17, lng: 180 })).toBe(true);
    expect(boxContains(box!, { lat: -17, lng: -180 })).toBe(true);
    expect(boxContains(box!, { lat: -17, lng: 179 })).toBe(true);
    expect(boxContains(box!, { lat: -17, lng: 0 })).toBe(false);
    expect(boxContains(box!, { lat: -17, lng: 178 })).toBe(false);
  });

  it('the widest gap decides: across ±180 → the plain box, elsewhere → the box crosses ±180', () => {
    // gaps -170→-10: 160°, -10→10: 20°, across ±180: 180° → plain
    expect(
      boundingBox([
        { lat: 0, lng: -170 },
        { lat: 0, lng: 10 },
        { lat: 0, lng: -10 },
      ]),
    ).toEqual({ minLat: 0, minLng: -170, maxLat: 0, maxLng: 10 });
    // gaps -170→0: 170°, 0→170: 170°, across ±180: 20° → the first widest gap is left out: 0 east to -170
    expect(
      boundingBox([
        { lat: 0, lng: -170 },
        { lat: 0, lng: 170 },
        { lat: 0, lng: 0 },
      ]),
    ).toEqual({ minLat: 0, minLng: 0, maxLat: 0, maxLng: -170 });
  });

  it('boxContains includes the edges', () => {
    const box = { minLat: 0, minLng: 0, maxLat: 1, maxLng: 1 };
    expect(boxContains(box, { lat: 0, lng: 1 })).toBe(true);
    expect(boxContains(box, { lat: 1.0001, lng: 0.5 })).toBe(false);
    expect(boxContains(box, { lat: 0.5, lng: -0.0001 })).toBe(false);
  });
});
