import { GeofencePlaceRow, toGeofencePlaceView } from './geofence-place-view';

const row: GeofencePlaceRow = {
  id: 'P1',
  name: 'Depot',
  address: 'Trg 1',
  city: 'Ljubljana',
  state: '',
  postalcode: '1000',
  countryCode: 'SI',
  phone: '+386 1 000',
  email: 'depot@example.test',
  lat: 46.05,
  lng: 14.5,
  radius: 0,
  color: '#112233',
  linkedForms: 'f1,f2',
  creator: 'Ana',
  data: [
    { key: 'gate', val: 'B' },
    { key: 'floor', val: '2' },
  ],
  teams: [3],
  createdAt: 1000,
  updatedAt: null,
};

describe('toGeofencePlaceView', () => {
  it('answers the Place resource: country_code, data as single-key objects, tsSaved = created when never edited', () => {
    expect(toGeofencePlaceView(row)).toEqual({
      uid: 'P1',
      name: 'Depot',
      address: 'Trg 1',
      city: 'Ljubljana',
      state: '',
      postalcode: '1000',
      country_code: 'SI',
      phone: '+386 1 000',
      email: 'depot@example.test',
      location: { lat: 46.05, lng: 14.5 },
      radius: 0,
      color: '#112233',
      linkedForms: 'f1,f2',
      creator: 'Ana',
      data: [{ gate: 'B' }, { floor: '2' }],
      teams: [3],
      tsCreated: 1000,
      tsSaved: 1000,
    });
  });

  it('answers location null without coordinates, creator "" without a creator, tsSaved = the last edit', () => {
    const view = toGeofencePlaceView({ ...row, lat: null, lng: null, creator: null, updatedAt: 5000 });
    expect(view).toMatchObject({ location: null, creator: '', tsSaved: 5000 });
  });
});
