import 'reflect-metadata';
import { DomainError, invalid, notFound, validationIssues } from '@app/core';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  connectorBodyToPlaceFields,
  connectorCreatePlace,
  connectorEditPlace,
  toConnectorPlace,
  toConnectorPlaceError,
} from './connector-place';
import { ConnectorPlaceBody, ConnectorPlacesQueryDto } from './dto/connector-place.dto';
import { CreatePlaceDto, EditPlaceDto } from './dto/place.dto';
import { PlaceView } from './place-view';

const view: PlaceView = {
  uid: '01PLACE',
  name: 'Depot',
  address: 'Main 1',
  city: 'Ljubljana',
  state: 'LJ',
  postalcode: '1000',
  country_code: 'SI',
  phone: '+386 1 234',
  email: 'depot@example.com',
  location: { lat: 46.0569, lng: 14.5058 },
  radius: 50,
  color: '#AA0011',
  linkedForms: 'f1',
  creator: 'Ann',
  data: [{ gate: 'B' }],
  teams: [1, 3],
  tsCreated: 1000,
  tsSaved: 2000,
};

/** The issues class-validator finds in `plain` as `cls` (the pipe's transform and rules). */
const issues = (cls: new () => object, plain: object, prefix: string) =>
  validationIssues(validateSync(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true }), prefix);

describe('toConnectorPlace (action place → connector place)', () => {
  it('maps every field of CONTRACTS.md "Wave 3: connector", camelCase; tsCreated/tsSaved become createdAt/updatedAt', () => {
    expect(toConnectorPlace(view)).toEqual({
      id: '01PLACE',
      name: 'Depot',
      address: 'Main 1',
      city: 'Ljubljana',
      state: 'LJ',
      postalCode: '1000',
      countryCode: 'SI',
      phone: '+386 1 234',
      email: 'depot@example.com',
      location: { lat: 46.0569, lng: 14.5058 },
      radius: 50,
      teams: [1, 3],
      createdAt: 1000,
      updatedAt: 2000,
    });
  });

  it('keeps a place without a position as location null', () => {
    expect(toConnectorPlace({ ...view, location: null }).location).toBeNull();
  });
});

describe('connector body → createplace / editplace', () => {
  const body: ConnectorPlaceBody = {
    name: 'Depot',
    address: 'Main 1',
    city: 'Ljubljana',
    state: 'LJ',
    postalCode: '1000',
    countryCode: 'SI',
    phone: '+386',
    email: 'a@b.test',
    location: { lat: 1, lng: 2 },
    radius: 5,
    teams: [2],
  };

  it('renames each field to the action API’s and copies only the fields sent', () => {
    expect(connectorBodyToPlaceFields(body)).toEqual({
      name: 'Depot',
      address: 'Main 1',
      city: 'Ljubljana',
      state: 'LJ',
      postalcode: '1000',
      country_code: 'SI',
      phone: '+386',
      email: 'a@b.test',
      location: { lat: 1, lng: 2 },
      radius: 5,
      teams: [2],
    });
    expect(connectorBodyToPlaceFields({ radius: 0 })).toEqual({ radius: 0 });
  });

  it('POST: a CreatePlaceDto; name required, id read-only', () => {
    const dto = connectorCreatePlace(body);
    expect(dto).toBeInstanceOf(CreatePlaceDto);
    expect(dto.postalcode).toBe('1000');
    expect(() => connectorCreatePlace({ city: 'x' })).toThrow(invalid('body.name', 'is required'));
    expect(() => connectorCreatePlace({ ...body, id: 'X' })).toThrow(invalid('body.id', 'is read-only on create'));
  });

  it('PATCH: an EditPlaceDto on the path’s id (errors name path.id); a different body id is refused', () => {
    const dto = connectorEditPlace('P1', { radius: 9, id: 'P1' });
    expect(dto).toBeInstanceOf(EditPlaceDto);
    expect(dto.targets).toEqual([{ uid: 'P1', field: 'path.id' }]);
    expect(dto.radius).toBe(9);
    expect(dto.name).toBeUndefined();
    expect(() => connectorEditPlace('P1', { id: 'P2' })).toThrow(invalid('body.id', 'differs from the id in the path'));
  });

  it('the connector’s rules are createplace’s, field for field (same values refused with the same rule)', () => {
    const bad: Array<[keyof ConnectorPlaceBody, unknown]> = [
      ['name', ''],
      ['name', 'x'.repeat(201)],
      ['address', 'x'.repeat(501)],
      ['city', 5],
      ['state', 'x'.repeat(101)],
      ['postalCode', 'x'.repeat(21)],
      ['countryCode', 'SVN'],
      ['phone', 'x'.repeat(65)],
      ['email', 'nope'],
      ['location', { lat: 91, lng: 0 }],
      ['location', 'here'],
      ['radius', -1],
      ['radius', 1.5],
      ['radius', 100001],
      ['teams', [1, 'x']],
    ];
    for (const [field, value] of bad) {
      const action = (connectorBodyToPlaceFields({ [field]: value } as ConnectorPlaceBody) as Record<string, unknown>) ?? {};
      const [actionField] = Object.keys(action);
      const mine = issues(ConnectorPlaceBody, { [field]: value }, 'body');
      const theirs = issues(CreatePlaceDto, { name: 'ok', ...action }, 'data').filter((i) => i.field.startsWith(`data.${actionField}`));
      expect({ field, value, rules: mine.map((i) => i.rule) }).toEqual({ field, value, rules: theirs.map((i) => i.rule) });
      expect(mine.length).toBe(1);
    }
    expect(issues(ConnectorPlaceBody, { countryCode: 'si' }, 'body')).toEqual([]);
  });

  it('refuses the answer-only fields as read-only, unknown fields as unknown', () => {
    const found = issues(ConnectorPlaceBody, { createdAt: 1, updatedAt: 2, color: '#000000' }, 'body');
    expect(found.sort((a, b) => a.field.localeCompare(b.field))).toEqual([
      { field: 'body.color', rule: 'unknown field' },
      { field: 'body.createdAt', rule: 'is read-only' },
      { field: 'body.updatedAt', rule: 'is read-only' },
    ]);
  });
});

describe('ConnectorPlacesQueryDto', () => {
  it('takes digits only for integers, refuses negatives, fractions and seconds-looking times naming the unit', () => {
    expect(issues(ConnectorPlacesQueryDto, { updatedSince: '1795000000000', limit: '500', skip: '0', query: 'dep' }, 'query')).toEqual([]);
    const one = (q: object) => issues(ConnectorPlacesQueryDto, q, 'query').map((i) => `${i.field}: ${i.rule}`);
    expect(one({ limit: '-1' })).toEqual(['query.limit: must be an integer ≥ 0']);
    expect(one({ skip: '1.5' })).toEqual(['query.skip: must be an integer ≥ 0']);
    expect(one({ updatedSince: 'abc' })).toEqual(['query.updatedSince: must be an integer ≥ 0 (ms)']);
    expect(one({ updatedSince: '1795000000' })).toEqual(['query.updatedSince: must be ms since the epoch; 1795000000 looks like seconds']);
    expect(one({ sort: 'name' })).toEqual(['query.sort: unknown field']);
  });
});

describe('toConnectorPlaceError', () => {
  it('names the connector’s field for an action field error, index kept', () => {
    expect(toConnectorPlaceError(invalid('data.postalcode', 'too long'))).toEqual(invalid('body.postalCode', 'too long'));
    expect(toConnectorPlaceError(invalid('data.teams[2]', 'team 9 is not in the company'))).toEqual(
      invalid('body.teams[2]', 'team 9 is not in the company'),
    );
    expect(toConnectorPlaceError(invalid('data.location', 'is required: no geocoder is configured'))).toEqual(
      invalid('body.location', 'is required: no geocoder is configured'),
    );
  });

  it('passes other errors unchanged', () => {
    const missing = notFound('path.id: place P');
    expect(toConnectorPlaceError(missing)).toBe(missing);
    const denied = new DomainError('forbidden', 'no');
    expect(toConnectorPlaceError(denied)).toBe(denied);
    const plain = new Error('x');
    expect(toConnectorPlaceError(plain)).toBe(plain);
  });
});
