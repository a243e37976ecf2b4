import { PlacesService } from '@app/places';
import { DataSource } from 'typeorm';
import { action, connector, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/**
 * `/v1/places` over real HTTP (CONTRACTS.md "Wave 3: connector for automation platforms";
 * docs/connector.md "Places"): the answer shapes, polling by `updatedSince`, paging, the roles of the
 * places actions (a worker key, `workers_create_places`, `workers_view_places`), tenant isolation,
 * and bad input named in the connector's error shape.
 */
describe('/v1/places', () => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api);
    const teams = await action(
      api,
      'editcompany',
      {
        teams_config: [
          { id: 1, name: 'North' },
          { id: 2, name: 'South' },
        ],
      },
      { key: company.key },
    );
    expect(teams.body.status).toBe(0);
  });
  afterAll(() => api.close());

  const LJUBLJANA = { lat: 46.0569, lng: 14.5058 };
  const v1 = (method: string, path: string, key: string, body?: unknown) => connector(api, method, path, key, body);
  const create = async (key: string, body: Record<string, unknown>) => {
    const res = await v1('POST', '/v1/places', key, body);
    expect({ http: res.http, body: res.body }).toEqual({ http: 201, body: { data: { items: [expect.any(Object)] } } });
    return res.body.data.items[0];
  };

  it('POST (201), GET by id, PATCH (only the fields sent), DELETE answer the documented shapes; the action API sees the same place', async () => {
    const before = Date.now();
    const place = await create(company.key, {
      name: 'Central depot',
      address: 'Dunajska cesta 5',
      city: 'Ljubljana',
      state: 'LJ',
      postalCode: '1000',
      countryCode: 'si',
      phone: '+386 1 234 5678',
      email: 'Depot <depot@example.com>',
      location: LJUBLJANA,
      radius: 80,
      teams: [2],
    });
    expect(place).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      name: 'Central depot',
      address: 'Dunajska cesta 5',
      city: 'Ljubljana',
      state: 'LJ',
      postalCode: '1000',
      countryCode: 'SI',
      phone: '+386 1 234 5678',
      email: 'Depot <depot@example.com>',
      location: LJUBLJANA,
      radius: 80,
      teams: [2],
      createdAt: expect.any(Number),
      updatedAt: place.createdAt,
    });
    expect(place.createdAt).toBeGreaterThanOrEqual(before);
    const viaAction = await action<any>(api, 'getplaces', { uids: [place.id] }, { key: company.key });
    expect(viaAction.body.places[0]).toMatchObject({ uid: place.id, postalcode: '1000', country_code: 'SI', radius: 80 });

    expect(await v1('GET', `/v1/places/${place.id}`, company.key)).toEqual({ http: 200, body: { data: { items: [place] } } });

    const patched = await v1('PATCH', `/v1/places/${place.id}`, company.key, { id: place.id, radius: 120, postalCode: '1001' });
    expect(patched.http).toBe(200);
    expect(patched.body.data.items[0]).toEqual({ ...place, radius: 120, postalCode: '1001', updatedAt: expect.any(Number) });
    expect(patched.body.data.items[0].updatedAt).toBeGreaterThanOrEqual(place.updatedAt);
    const empty = await v1('PATCH', `/v1/places/${place.id}`, company.key, {});
    expect(empty.body.data.items[0]).toMatchObject({ radius: 120, name: 'Central depot' });

    const bare = await create(company.key, { name: 'Bare', location: { lat: 0, lng: 0 } });
    expect(bare).toMatchObject({ address: '', countryCode: '', phone: '', email: '', radius: 0, teams: [] });

    expect(await v1('DELETE', `/v1/places/${place.id}`, company.key)).toEqual({
      http: 200,
      body: { data: { id: place.id, deleted: true } },
    });
    for (const [method, body] of [['GET'], ['PATCH', { radius: 1 }], ['DELETE']] as const) {
      const gone = await v1(method, `/v1/places/${place.id}`, company.key, body);
      expect({ method, gone }).toEqual({
        method,
        gone: { http: 404, body: { error: { message: `path.id: place ${place.id} not found` } } },
      });
    }
    const [row] = await db.query(`SELECT deleted_at FROM places WHERE id = $1`, [place.id]);
    expect(row.deleted_at).not.toBeNull(); // soft delete, as deleteplace
    expect((await action<any>(api, 'getplaces', { uids: [place.id] }, { key: company.key })).body.places).toEqual([]);
  });

  it('GET lists newest change first (ties by id), polls by updatedSince (inclusive), pages with limit (≤ 100) and skip, filters by name', async () => {
    const c = await createCompany(api);
    const service = api.app.get(PlacesService);
    const ctx = { companyId: c.companyUid, memberId: c.ownerUid, role: 'administrator' as const, isOwner: true } as never;
    for (let i = 0; i < 104; i++) await service.createPlace(ctx, { name: `Bulk ${String(i).padStart(3, '0')}`, location: LJUBLJANA });
    const list = async (q: string) => {
      const res = await v1('GET', `/v1/places${q}`, c.key);
      expect(res.http).toBe(200);
      return res.body.data.items as Array<{ id: string; name: string; updatedAt: number }>;
    };
    const page = await list('');
    expect(page).toHaveLength(100);
    expect(await list('?limit=500')).toHaveLength(100);
    expect(await list('?limit=0')).toEqual([]);
    const all = [...page, ...(await list('?skip=100'))];
    expect(all).toHaveLength(104);
    expect(new Set(all.map((p) => p.id)).size).toBe(104);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      expect(a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id > b.id)).toBe(true);
    }

    // an edit moves a place to the front; updatedSince answers it (and what came at the same ms or later)
    const target = all[all.length - 1];
    await new Promise((r) => setTimeout(r, 5));
    const since = Date.now();
    const edited = await v1('PATCH', `/v1/places/${target.id}`, c.key, { city: 'Maribor' });
    const polled = await list(`?updatedSince=${since}`);
    expect(polled.map((p) => p.id)).toEqual([target.id]);
    expect(await list(`?updatedSince=${edited.body.data.items[0].updatedAt}`)).toHaveLength(1);
    expect(await list(`?updatedSince=${edited.body.data.items[0].updatedAt + 1}`)).toEqual([]);
    expect((await list('?limit=1'))[0].id).toBe(target.id);
    // a deleted place leaves the list
    await v1('DELETE', `/v1/places/${target.id}`, c.key);
    expect(await list(`?updatedSince=${since}`)).toEqual([]);

    expect((await list('?query=bulk%20010')).map((p) => p.name)).toEqual(['Bulk 010']);
    expect(await list('?query=%25')).toEqual([]); // % is matched literally
    expect(await list('?query=&limit=3')).toHaveLength(3);
  });

  it('bad input → 400 naming the parameter or field, in the connector shape; nothing written', async () => {
    const c = await createCompany(api);
    const count = async () => (await db.query(`SELECT count(*)::int AS n FROM places WHERE company_id = $1`, [c.companyUid]))[0].n;
    for (const [q, message] of [
      ['limit=-1', 'query.limit: must be an integer ≥ 0'],
      ['skip=1.5', 'query.skip: must be an integer ≥ 0'],
      ['updatedSince=abc', 'query.updatedSince: must be an integer ≥ 0 (ms)'],
      ['updatedSince=1795000000', 'query.updatedSince: must be ms since the epoch; 1795000000 looks like seconds'],
      ['max=5', 'query.max: unknown field'],
    ]) {
      expect({ q, res: await v1('GET', `/v1/places?${q}`, c.key) }).toEqual({ q, res: { http: 400, body: { error: { message } } } });
    }
    const place = await create(c.key, { name: 'Ok', location: LJUBLJANA });
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/v1/places', { location: LJUBLJANA }, 'body.name: is required'],
      ['POST', '/v1/places', { name: 'x' }, 'body.location: is required: no geocoder is configured'],
      ['POST', '/v1/places', { name: 'x', location: LJUBLJANA, id: 'MINE' }, 'body.id: is read-only on create'],
      ['POST', '/v1/places', { name: 'x', location: { lat: 91, lng: 0 } }, 'body.location.lat: must not be greater than 90'],
      [
        'POST',
        '/v1/places',
        { name: 'x', location: LJUBLJANA, postalCode: 'x'.repeat(21) },
        'body.postalCode: must be shorter than or equal to 20 characters',
      ],
      [
        'POST',
        '/v1/places',
        { name: 'x', location: LJUBLJANA, countryCode: 'SVN' },
        'body.countryCode: must be an ISO 3166-1 alpha-2 country code such as SI, or ""',
      ],
      ['POST', '/v1/places', { name: 'x', location: LJUBLJANA, teams: [9] }, "body.teams[0]: team 9 is not in the company's teams_config"],
      ['POST', '/v1/places', { name: 'x', location: LJUBLJANA, radius: '5' }, 'body.radius: must be an integer number'],
      ['POST', '/v1/places', { name: 'x', location: LJUBLJANA, createdAt: 1 }, 'body.createdAt: is read-only'],
      ['POST', '/v1/places', { name: 'x', location: LJUBLJANA, color: '#000000' }, 'body.color: unknown field'],
      ['PATCH', `/v1/places/${place.id}`, { name: '' }, 'body.name: must be longer than or equal to 1 characters'],
      ['PATCH', `/v1/places/${place.id}`, { id: 'OTHER', radius: 1 }, 'body.id: differs from the id in the path'],
      ['PATCH', `/v1/places/${place.id}`, { email: 'nope' }, expect.stringMatching(/^body\.email: must be an e-mail address/) as never],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await v1(method, path, c.key, body);
      expect({ body, res }).toEqual({ body, res: { http: 400, body: { error: { message } } } });
    }
    expect(await count()).toBe(1);
    expect((await v1('GET', `/v1/places/${place.id}`, c.key)).body.data.items[0]).toEqual(place);
  });

  it('another company’s places: 404 on every /{id} route, never listed, never changed', async () => {
    const mine = await createCompany(api);
    const theirs = await createCompany(api);
    const their = await create(theirs.key, { name: 'Their depot', location: LJUBLJANA });
    await create(mine.key, { name: 'My depot', location: LJUBLJANA });
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Hijacked' }], ['DELETE']] as const) {
      const res = await v1(method, `/v1/places/${their.id}`, mine.key, body);
      expect({ method, res }).toEqual({
        method,
        res: { http: 404, body: { error: { message: expect.stringContaining(`place ${their.id} not found`) } } },
      });
      const unknown = await v1(method, '/v1/places/01JD0000000000000000000000', mine.key, body);
      expect(unknown.http).toBe(404);
    }
    const listed = (await v1('GET', '/v1/places?limit=100', mine.key)).body.data.items.map((p: { name: string }) => p.name);
    expect(listed).toEqual(['My depot']);
    expect((await v1('GET', `/v1/places?query=their`, mine.key)).body.data.items).toEqual([]);
    expect((await v1('GET', `/v1/places/${their.id}`, theirs.key)).body.data.items[0]).toEqual(their);
  });

  it('a worker key: reads places (only its teams’ without workers_view_places), writes only with workers_create_places', async () => {
    const c = await createCompany(api);
    await action(
      api,
      'editcompany',
      {
        teams_config: [
          { id: 1, name: 'North' },
          { id: 2, name: 'South' },
        ],
      },
      { key: c.key },
    );
    const worker = await createMember(api, c, { role: 'worker', teams: [1] });
    const north = await create(c.key, { name: 'North yard', location: LJUBLJANA, teams: [1] });
    const south = await create(c.key, { name: 'South yard', location: LJUBLJANA, teams: [2] });

    const denied = await v1('POST', '/v1/places', worker.key, { name: 'Mine', location: LJUBLJANA });
    expect(denied).toEqual({
      http: 403,
      body: { error: { message: 'a worker may not create places unless the company enables workers_create_places' } },
    });
    expect((await v1('PATCH', `/v1/places/${north.id}`, worker.key, { radius: 5 })).http).toBe(403);
    expect((await v1('DELETE', `/v1/places/${north.id}`, worker.key)).http).toBe(403);
    const names = async () => (await v1('GET', '/v1/places', worker.key)).body.data.items.map((p: { name: string }) => p.name).sort();
    expect(await names()).toEqual(['North yard', 'South yard']); // workers_view_places defaults to true

    expect(
      (await action(api, 'editcompany', { workers_create_places: true, workers_view_places: false }, { key: c.key })).body.status,
    ).toBe(0);
    expect(await names()).toEqual(['North yard']);
    expect((await v1('GET', `/v1/places/${south.id}`, worker.key)).http).toBe(404);
    expect((await v1('PATCH', `/v1/places/${south.id}`, worker.key, { radius: 5 })).http).toBe(404);
    const created = await create(worker.key, { name: 'Worker spot', location: LJUBLJANA });
    expect(created.teams).toEqual([1]); // the caller's teams are added, as createplace does
    const patched = await v1('PATCH', `/v1/places/${north.id}`, worker.key, { radius: 5 });
    expect(patched.body.data.items[0].radius).toBe(5);
    expect((await v1('DELETE', `/v1/places/${created.id}`, worker.key)).http).toBe(200);
  });

  it('no key, or a bad one → 401 in the connector shape', async () => {
    expect(await v1('GET', '/v1/places', '')).toEqual({ http: 401, body: { error: { message: 'missing API-Key header' } } });
    expect((await v1('POST', '/v1/places', 'fwk_nope', { name: 'x' })).http).toBe(401);
  });
});
