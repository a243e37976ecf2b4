import { toPlaceView } from './place-view';

describe('toPlaceView', () => {
  const place = {
    id: '01PLACE',
    name: 'Depot',
    address: 'Main 1',
    city: 'Ljubljana',
    state: '',
    postalcode: '1000',
    countryCode: 'SI',
    phone: '+386 1 234',
    email: 'depot@example.com',
    location: { type: 'Point' as const, coordinates: [14.5058, 46.0569] },
    radius: 50,
    color: '#AA0011',
    linkedForms: 'f1,f2',
    data: [
      { key: 'gate', val: 'B' },
      { key: 'floor', val: '2' },
    ],
    teams: [1, 3],
    createdAt: 1000,
    updatedAt: null,
  };

  it('maps the GeoJSON point to {lat, lng}, data to single-key objects, tsSaved to creation when never edited', () => {
    expect(toPlaceView(place, 'Ann')).toEqual({
      uid: '01PLACE',
      name: 'Depot',
      address: 'Main 1',
      city: 'Ljubljana',
      state: '',
      postalcode: '1000',
      country_code: 'SI',
      phone: '+386 1 234',
      email: 'depot@example.com',
      location: { lat: 46.0569, lng: 14.5058 },
      radius: 50,
      color: '#AA0011',
      linkedForms: 'f1,f2',
      creator: 'Ann',
      data: [{ gate: 'B' }, { floor: '2' }],
      teams: [1, 3],
      tsCreated: 1000,
      tsSaved: 1000,
    });
  });

  it('answers a null location, an unknown creator as "" and the last write as tsSaved', () => {
    const view = toPlaceView({ ...place, location: null, updatedAt: 2000 }, null);
    expect(view.location).toBeNull();
    expect(view.creator).toBe('');
    expect(view.tsSaved).toBe(2000);
  });
});
