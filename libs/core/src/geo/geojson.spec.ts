import { fromPoint, toPoint } from './geojson';

describe('toPoint / fromPoint', () => {
  it('GeoJSON is [lng, lat]; the wire is {lat, lng}', () => {
    expect(toPoint({ lat: 46.0569, lng: 14.5058 })).toEqual({ type: 'Point', coordinates: [14.5058, 46.0569] });
    expect(fromPoint({ type: 'Point', coordinates: [14.5058, 46.0569] })).toEqual({ lat: 46.0569, lng: 14.5058 });
    expect(fromPoint(toPoint({ lat: -33.87, lng: 151.21 }))).toEqual({ lat: -33.87, lng: 151.21 });
  });

  it('a null column is a null position', () => {
    expect(fromPoint(null)).toBeNull();
    expect(fromPoint(undefined)).toBeNull();
  });
});
