import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { action, createCompany, startApi, TestApi } from '../support/api';

/**
 * createplace without `location` when `GEOCODER_URL` is configured (CONTRACTS.md "Places, check-ins,
 * clock"): the address fields go to a Nominatim-compatible `/search`. A tiny one runs on loopback and
 * knows one address.
 */
describe('createplace geocoding', () => {
  let api: TestApi;
  let geocoder: Server;
  const asked: URLSearchParams[] = [];
  let failing = false;

  beforeAll(async () => {
    geocoder = createServer((req, res) => {
      const url = new URL(req.url!, 'http://geocoder');
      if (url.pathname !== '/nominatim/search') return res.writeHead(404).end();
      asked.push(url.searchParams);
      if (failing) return res.writeHead(500).end('down');
      const known = url.searchParams.get('city') === 'Ljubljana' && url.searchParams.get('countrycodes') === 'si';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(known ? [{ lat: '46.0500', lon: '14.5060', display_name: 'Prešernov trg, Ljubljana' }] : []));
    });
    await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
    const saved = process.env.GEOCODER_URL;
    process.env.GEOCODER_URL = `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}/nominatim`;
    try {
      api = await startApi();
    } finally {
      if (saved === undefined) delete process.env.GEOCODER_URL;
      else process.env.GEOCODER_URL = saved;
    }
  });
  afterAll(async () => {
    await api.close();
    await new Promise((resolve) => geocoder.close(resolve));
  });
  beforeEach(() => {
    asked.length = 0;
    failing = false;
  });

  it('geocodes the address fields into the location', async () => {
    const company = await createCompany(api);
    const res = await action<any>(
      api,
      'createplace',
      { name: 'Square', address: 'Prešernov trg 1', city: 'Ljubljana', postalcode: '1000', country_code: 'SI' },
      { key: company.key },
    );
    expect(res.body.status).toBe(0);
    expect(res.body.place).toMatchObject({
      name: 'Square',
      location: { lat: 46.05, lng: 14.506 },
      address: 'Prešernov trg 1',
      country_code: 'SI',
    });
    expect(asked).toHaveLength(1);
    expect(Object.fromEntries(asked[0])).toMatchObject({
      format: 'jsonv2',
      limit: '1',
      street: 'Prešernov trg 1',
      city: 'Ljubljana',
      postalcode: '1000',
      countrycodes: 'si',
    });
  });

  it('a location sent is kept and nothing is asked', async () => {
    const company = await createCompany(api);
    const res = await action<any>(
      api,
      'createplace',
      { name: 'Here', city: 'Ljubljana', location: { lat: 1, lng: 2 } },
      { key: company.key },
    );
    expect(res.body.place.location).toEqual({ lat: 1, lng: 2 });
    expect(asked).toHaveLength(0);
  });

  it.each([
    [
      'an address the geocoder does not know',
      { city: 'Atlantis', country_code: 'GR' },
      'data.location: is required: the address was not found',
      1,
    ],
    ['no address fields at all', {}, 'data.location: is required: send location, or address fields to geocode', 0],
  ])('%s → -1 naming location, nothing written', async (_label, fields, error, asks) => {
    const company = await createCompany(api);
    const res = await action<any>(api, 'createplace', { name: 'Nowhere', ...fields }, { key: company.key });
    expect(res.http).toBe(400);
    expect(res.body).toEqual({ status: -1, error });
    expect(asked).toHaveLength(asks);
    expect((await action<any>(api, 'getplaces', {}, { key: company.key })).body.places).toEqual([]);
  });

  it('a failing geocoder is an address not found, never a 500', async () => {
    failing = true;
    const company = await createCompany(api);
    const res = await action<any>(api, 'createplace', { name: 'Square', city: 'Ljubljana', country_code: 'SI' }, { key: company.key });
    expect(res.body).toEqual({ status: -1, error: 'data.location: is required: the address was not found' });
    expect(asked).toHaveLength(1);
  });
});
