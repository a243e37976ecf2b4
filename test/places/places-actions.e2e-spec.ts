import { distanceM, newId } from '@app/core';
import { PlacesService } from '@app/places';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/**
 * The places actions (CONTRACTS.md "Places, check-ins, clock", "Roles for wave 2"): createplace's
 * rules, getplaces' nearest-first order, filters and worker visibility, editplace, deleteplace's
 * soft delete as jobs see it, and tenant isolation. No geocoder is configured here
 * (places-geocoding.e2e-spec.ts runs one).
 */
describe('places actions', () => {
  let api: TestApi;
  let db: DataSource;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  const call = <T = any>(name: string, data: unknown, key: string) => action<T>(api, name, data, { key });
  const create = async (key: string, data: Record<string, unknown>) => {
    const res = await call('createplace', data, key);
    expect(res.body).toMatchObject({ status: 0 });
    return res.body.place;
  };
  const names = async (key: string, data: Record<string, unknown> = {}) => {
    const res = await call('getplaces', data, key);
    expect(res.body.status).toBe(0);
    return (res.body.places as Array<{ name: string }>).map((p) => p.name);
  };
  /** Puts a member's latest position where the locations lib keeps it. */
  const locate = (company: TestCompany, memberId: string, at: { lat: number; lng: number }) =>
    db.query(
      `INSERT INTO member_locations (company_id, member_id, ts, lat, lng, updated_at) VALUES ($1, $2, $3, $4, $5, $3)
       ON CONFLICT (company_id, member_id) DO UPDATE SET lat = EXCLUDED.lat, lng = EXCLUDED.lng, ts = EXCLUDED.ts`,
      [company.companyUid, memberId, Date.now(), at.lat, at.lng],
    );
  const placeCount = async (company: TestCompany) =>
    (await db.query(`SELECT count(*)::int AS n FROM places WHERE company_id = $1`, [company.companyUid]))[0].n as number;

  const LJUBLJANA = { lat: 46.0569, lng: 14.5058 };

  describe('createplace', () => {
    it('answers {status, uid, place} with every field of the Place object; the creator is the caller', async () => {
      const company = await createCompany(api);
      const op = await createMember(api, company, { role: 'operator', name: 'Olga Operator' });
      const before = Date.now();
      const res = await call(
        'createplace',
        {
          name: 'Depot',
          location: LJUBLJANA,
          radius: 80,
          address: 'Main 1',
          city: 'Ljubljana',
          state: 'LJ',
          postalcode: '1000',
          country_code: 'si',
          phone: '+386 1 234 5678',
          email: 'depot@example.com',
          color: '#12ab9F',
          linkedForms: 'f1,f2',
          extended_data: [
            { key: 'gate', val: 'B' },
            { key: 'floor', val: '2' },
          ],
        },
        op.key,
      );
      expect(res.http).toBe(200);
      expect(res.body.status).toBe(0);
      expect(res.body.uid).toMatch(/^[0-9A-Z]{26}$/);
      expect(res.body.place).toEqual({
        uid: res.body.uid,
        name: 'Depot',
        address: 'Main 1',
        city: 'Ljubljana',
        state: 'LJ',
        postalcode: '1000',
        country_code: 'SI',
        phone: '+386 1 234 5678',
        email: 'depot@example.com',
        location: LJUBLJANA,
        radius: 80,
        color: '#12ab9F',
        linkedForms: 'f1,f2',
        creator: 'Olga Operator',
        data: [{ gate: 'B' }, { floor: '2' }],
        teams: [],
        tsCreated: expect.any(Number),
        tsSaved: res.body.place.tsCreated,
      });
      expect(res.body.place.tsCreated).toBeGreaterThanOrEqual(before);
      const [row] = await db.query(`SELECT creator_id, company_id, deleted_at FROM places WHERE id = $1`, [res.body.uid]);
      expect(row).toEqual({ creator_id: op.uid, company_id: company.companyUid, deleted_at: null });
    });

    it('name is the only required field besides location; radius defaults to 0, strings to ""', async () => {
      const company = await createCompany(api);
      const place = await create(company.key, { name: 'Bare', location: { lat: 0, lng: 0 } });
      expect(place).toMatchObject({ radius: 0, address: '', color: '', email: '', phone: '', data: [], teams: [], linkedForms: '' });
    });

    it('phone and e-mail follow the field rules: the CRM examples are stored as sent, a 65-character phone is -1/400', async () => {
      const company = await createCompany(api);
      const phone = '+1 (555) 123-4567 x89';
      const email = 'Ema <ema@x.test>';
      const place = await create(company.key, { name: 'Florist', location: LJUBLJANA, phone, email });
      expect(place).toMatchObject({ phone, email });
      expect((await db.query(`SELECT phone, email FROM places WHERE id = $1`, [place.uid]))[0]).toEqual({ phone, email });
      const edited = await call('editplace', { uid: place.uid, phone: '0800 FLOWERS' }, company.key);
      expect(edited.body.status).toBe(0);
      expect((await db.query(`SELECT phone FROM places WHERE id = $1`, [place.uid]))[0].phone).toBe('0800 FLOWERS');
      const long = await call('createplace', { name: 'Long', location: LJUBLJANA, phone: 'x'.repeat(65) }, company.key);
      expect(long).toEqual({
        http: 400,
        body: { status: -1, error: 'data.phone: must be a phone: text of at most 64 characters without control characters, or ""' },
      });
    });

    it.each([
      ['name missing', { location: LJUBLJANA }, 'data.name'],
      ['name empty', { name: '', location: LJUBLJANA }, 'data.name'],
      ['name not a string', { name: 5, location: LJUBLJANA }, 'data.name'],
      ['location missing, no geocoder configured', { name: 'X' }, 'data.location: is required: no geocoder is configured'],
      ['location null', { name: 'X', location: null }, 'data.location'],
      ['location not an object', { name: 'X', location: '46,14' }, 'data.location'],
      ['lat beyond 90', { name: 'X', location: { lat: 91, lng: 0 } }, 'data.location.lat'],
      ['lng beyond 180', { name: 'X', location: { lat: 0, lng: -180.5 } }, 'data.location.lng'],
      ['lat missing', { name: 'X', location: { lng: 0 } }, 'data.location.lat'],
      ['unknown key in location', { name: 'X', location: { lat: 0, lng: 0, alt: 3 } }, 'data.location.alt: unknown field'],
      ['radius negative', { name: 'X', location: LJUBLJANA, radius: -1 }, 'data.radius'],
      ['radius fractional', { name: 'X', location: LJUBLJANA, radius: 1.5 }, 'data.radius'],
      ['color not #RRGGBB', { name: 'X', location: LJUBLJANA, color: 'red' }, 'data.color: must be a hex color #RRGGBB, or ""'],
      ['email', { name: 'X', location: LJUBLJANA, email: 'not-an-address' }, 'data.email'],
      ['phone', { name: 'X', location: LJUBLJANA, phone: '+1 555\n0100' }, 'data.phone'],
      ['country_code of 3 letters', { name: 'X', location: LJUBLJANA, country_code: 'SVN' }, 'data.country_code'],
      ['teams not integers', { name: 'X', location: LJUBLJANA, teams: ['a'] }, 'data.teams'],
      [
        'team not in teams_config',
        { name: 'X', location: LJUBLJANA, teams: [99] },
        "data.teams[0]: team 99 is not in the company's teams_config",
      ],
      ['extended_data entry without val', { name: 'X', location: LJUBLJANA, extended_data: [{ key: 'a' }] }, 'data.extended_data[0].val'],
      ['extended_data empty key', { name: 'X', location: LJUBLJANA, extended_data: [{ key: '', val: 'v' }] }, 'data.extended_data[0].key'],
      [
        'extended_data repeated key',
        {
          name: 'X',
          location: LJUBLJANA,
          extended_data: [
            { key: 'a', val: '1' },
            { key: 'a', val: '2' },
          ],
        },
        'data.extended_data: keys must be different',
      ],
      ['an unknown field', { name: 'X', location: LJUBLJANA, lat: 46 }, 'data.lat: unknown field'],
      ['a read-only field', { name: 'X', location: LJUBLJANA, uid: 'x' }, 'data.uid: unknown field'],
    ])('%s → -1/400 naming the field, nothing written', async (_label, data, error) => {
      const company = await createCompany(api);
      const res = await call('createplace', data, company.key);
      expect(res.http).toBe(400);
      expect(res.body.status).toBe(-1);
      expect(res.body.error!.startsWith(error)).toBe(true);
      expect(await placeCount(company)).toBe(0);
    });

    it('teams must be in teams_config; a caller’s own teams are added to the place’s teams', async () => {
      const company = await createCompany(api);
      expect(
        (
          await call(
            'editcompany',
            {
              teams_config: [
                { id: 1, name: 'North' },
                { id: 2, name: 'South' },
                { id: 3, name: 'East' },
              ],
            },
            company.key,
          )
        ).body.status,
      ).toBe(0);
      const op = await createMember(api, company, { role: 'operator', teams: [3, 1] });
      expect((await create(op.key, { name: 'P', location: LJUBLJANA, teams: [2] })).teams).toEqual([1, 2, 3]);
      expect((await create(op.key, { name: 'Q', location: LJUBLJANA })).teams).toEqual([1, 3]);
      expect((await create(company.key, { name: 'R', location: LJUBLJANA, teams: [2, 2] })).teams).toEqual([2]);
      // a team a live place uses can't leave teams_config
      const removal = await call(
        'editcompany',
        {
          teams_config: [
            { id: 1, name: 'North' },
            { id: 3, name: 'East' },
          ],
        },
        company.key,
      );
      expect(removal.body).toEqual({
        status: -1,
        error: 'data.teams_config: team 2 is still assigned to places; remove it from them first',
      });
    });

    it('workers create places only with workers_create_places; staff always', async () => {
      const company = await createCompany(api);
      await call('editcompany', { teams_config: [{ id: 4, name: 'Four' }] }, company.key);
      const worker = await createMember(api, company, { role: 'worker', teams: [4] });
      const refused = await call('createplace', { name: 'W', location: LJUBLJANA }, worker.key);
      expect(refused.http).toBe(403);
      expect(refused.body).toEqual({
        status: -5,
        error: 'a worker may not create places unless the company enables workers_create_places',
      });
      expect(await placeCount(company)).toBe(0);

      expect((await call('editcompany', { workers_create_places: true }, company.key)).body.status).toBe(0);
      const place = await create(worker.key, { name: 'W', location: LJUBLJANA });
      expect(place.teams).toEqual([4]);
    });
  });

  describe('getplaces', () => {
    it('answers nearest first by geodesic distance (ties by name), places without a location last', async () => {
      const company = await createCompany(api);
      const near = await create(company.key, { name: 'Near', location: { lat: 46.06, lng: 14.51 } });
      await create(company.key, { name: 'Far', location: { lat: 48.2, lng: 16.37 } }); // Vienna
      await create(company.key, { name: 'Mid', location: { lat: 45.81, lng: 15.98 } }); // Zagreb
      await create(company.key, { name: 'Twin B', location: { lat: 46.5, lng: 14.5 } });
      await create(company.key, { name: 'Twin A', location: { lat: 46.5, lng: 14.5 } });
      // places made before positions were required: no location
      for (const name of ['Zulu nowhere', 'Alpha nowhere'])
        await db.query(`INSERT INTO places (id, company_id, name, created_at) VALUES ($1, $2, $3, $4)`, [
          newId(),
          company.companyUid,
          name,
          Date.now(),
        ]);

      // the caller has no position yet: by name, located places first
      expect(await names(company.key)).toEqual(['Far', 'Mid', 'Near', 'Twin A', 'Twin B', 'Alpha nowhere', 'Zulu nowhere']);
      // the unlocated fill only what the located leave of max
      expect(await names(company.key, { max: 6 })).toEqual(['Far', 'Mid', 'Near', 'Twin A', 'Twin B', 'Alpha nowhere']);
      expect(await names(company.key, { max: 5 })).toEqual(['Far', 'Mid', 'Near', 'Twin A', 'Twin B']);

      await locate(company, company.ownerUid, LJUBLJANA);
      const res = await call('getplaces', {}, company.key);
      const got = res.body.places as Array<{ name: string; location: { lat: number; lng: number } | null }>;
      expect(got.map((p) => p.name)).toEqual(['Near', 'Twin A', 'Twin B', 'Mid', 'Far', 'Alpha nowhere', 'Zulu nowhere']);
      expect(await names(company.key, { max: 6 })).toEqual(['Near', 'Twin A', 'Twin B', 'Mid', 'Far', 'Alpha nowhere']);
      expect(await names(company.key, { max: 4 })).toEqual(['Near', 'Twin A', 'Twin B', 'Mid']);
      const distances = got.filter((p) => p.location).map((p) => distanceM(LJUBLJANA, p.location!));
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      expect(got[0]).toEqual(near);

      // another member's position orders its own answer
      const op = await createMember(api, company, { role: 'operator' });
      await locate(company, op.uid, { lat: 48.21, lng: 16.36 });
      expect((await names(op.key)).slice(0, 2)).toEqual(['Far', 'Twin A']);
    });

    it('orders by the geodesic where the sphere would not (a north–south and an east–west place at nearly equal distance)', async () => {
      const company = await createCompany(api);
      const at = { lat: 45, lng: 0 };
      // PostGIS' KNN (<->) measures on a sphere: East 175 m nearer than North; on the WGS84
      // ellipsoid (the wire's distance) North is 189 m nearer (measured with ST_Distance both ways)
      await create(company.key, { name: 'East', location: { lat: 45, lng: 1.412 } });
      await create(company.key, { name: 'North', location: { lat: 46, lng: 0 } });
      await locate(company, company.ownerUid, at);
      const got = (await call('getplaces', {}, company.key)).body.places as Array<{ name: string; location: { lat: number; lng: number } }>;
      const byGeodesic = [...got].sort((a, b) => distanceM(at, a.location) - distanceM(at, b.location)).map((p) => p.name);
      expect(got.map((p) => p.name)).toEqual(byGeodesic);
      expect(byGeodesic).toEqual(['North', 'East']);
    });

    it('query: case-insensitive substring of the name, LIKE wildcards taken literally', async () => {
      const company = await createCompany(api);
      for (const name of ['Main Depot', 'depot south', 'Shop 50% off', 'Shop 500', 'a_b', 'axb'])
        await create(company.key, { name, location: LJUBLJANA });
      expect((await names(company.key, { query: 'DEPOT' })).sort()).toEqual(['Main Depot', 'depot south']);
      expect(await names(company.key, { query: '50%' })).toEqual(['Shop 50% off']);
      expect(await names(company.key, { query: 'a_b' })).toEqual(['a_b']);
      expect(await names(company.key, { query: 'nothing like it' })).toEqual([]);
    });

    it('uids and max; max is 1 to 5000 (default 500)', async () => {
      const company = await createCompany(api);
      const a = await create(company.key, { name: 'A', location: { lat: 46.0, lng: 14.5 } });
      await create(company.key, { name: 'B', location: { lat: 46.1, lng: 14.5 } });
      const c = await create(company.key, { name: 'C', location: { lat: 46.2, lng: 14.5 } });
      await locate(company, company.ownerUid, { lat: 46.0, lng: 14.5 });
      expect(await names(company.key, { uids: [c.uid, a.uid, newId()] })).toEqual(['A', 'C']);
      expect(await names(company.key, { max: 2 })).toEqual(['A', 'B']);
      expect(await names(company.key, { max: 1, query: 'c' })).toEqual(['C']);
      for (const max of [0, 5001, 1.5, '10'])
        expect((await call('getplaces', { max }, company.key)).body).toEqual({
          status: -1,
          error: 'data.max: must be an integer from 1 to 5000',
        });
      expect((await call('getplaces', { uids: 'x' }, company.key)).body.error).toMatch(/^data\.uids: /);
      expect((await call('getplaces', { query: 5 }, company.key)).body.error).toMatch(/^data\.query: /);
    });

    it('workers see every place, or only their teams’ places when the company disables workers_view_places', async () => {
      const company = await createCompany(api);
      await call(
        'editcompany',
        {
          teams_config: [
            { id: 1, name: 'One' },
            { id: 2, name: 'Two' },
          ],
        },
        company.key,
      );
      await create(company.key, { name: 'Team 1', location: LJUBLJANA, teams: [1] });
      await create(company.key, { name: 'Team 2', location: LJUBLJANA, teams: [2] });
      await create(company.key, { name: 'Both', location: LJUBLJANA, teams: [1, 2] });
      await create(company.key, { name: 'None', location: LJUBLJANA });
      const worker = await createMember(api, company, { role: 'worker', teams: [1] });
      const loner = await createMember(api, company, { role: 'worker' });
      const op = await createMember(api, company, { role: 'operator' });

      expect(await names(worker.key)).toEqual(['Both', 'None', 'Team 1', 'Team 2']);
      await call('editcompany', { workers_view_places: false }, company.key);
      expect(await names(worker.key)).toEqual(['Both', 'Team 1']);
      expect(await names(loner.key)).toEqual([]);
      expect(await names(op.key)).toEqual(['Both', 'None', 'Team 1', 'Team 2']);
    });

    it('answers the Place object exactly as createplace did', async () => {
      const company = await createCompany(api);
      const made = await create(company.key, { name: 'Same', location: LJUBLJANA, extended_data: [{ key: 'k', val: 'v' }] });
      expect((await call('getplaces', {}, company.key)).body).toEqual({ status: 0, places: [made] });
    });
  });

  describe('editplace', () => {
    it('changes only the fields sent, on one place or several, and answers them', async () => {
      const company = await createCompany(api);
      await call('editcompany', { teams_config: [{ id: 7, name: 'Seven' }] }, company.key);
      const a = await create(company.key, {
        name: 'A',
        location: LJUBLJANA,
        radius: 10,
        color: '#000000',
        extended_data: [{ key: 'x', val: '1' }],
      });
      const b = await create(company.key, { name: 'B', location: { lat: 1, lng: 2 }, radius: 20 });

      const one = await call('editplace', { uid: a.uid, radius: 55, location: { lat: 45, lng: 13 } }, company.key);
      expect(one.body.status).toBe(0);
      expect(one.body.places).toEqual([{ ...a, radius: 55, location: { lat: 45, lng: 13 }, tsSaved: expect.any(Number) }]);
      expect(one.body.places[0].tsSaved).toBeGreaterThanOrEqual(a.tsCreated);

      const both = await call('editplace', { uids: [b.uid, a.uid], color: '#FFFFFF', teams: [7], extended_data: [] }, company.key);
      expect(both.body.places.map((p: any) => [p.name, p.color, p.teams, p.data, p.radius])).toEqual([
        ['B', '#FFFFFF', [7], [], 20],
        ['A', '#FFFFFF', [7], [], 55],
      ]);
      expect((await call('editplace', { uid: a.uid, name: 'A2', color: '' }, company.key)).body.places[0]).toMatchObject({
        name: 'A2',
        color: '',
      });
    });

    it('refuses unknown, deleted and other companies’ uids naming the field; nothing of the call is written', async () => {
      const company = await createCompany(api);
      const other = await createCompany(api);
      const a = await create(company.key, { name: 'A', location: LJUBLJANA });
      const gone = await create(company.key, { name: 'Gone', location: LJUBLJANA });
      const foreign = await create(other.key, { name: 'Foreign', location: LJUBLJANA });
      await call('deleteplace', { uid: gone.uid }, company.key);

      const unknown = newId();
      for (const [uids, field, id] of [
        [[a.uid, unknown], 'data.uids[1]', unknown],
        [[a.uid, gone.uid], 'data.uids[1]', gone.uid],
        [[foreign.uid, a.uid], 'data.uids[0]', foreign.uid],
      ] as const) {
        const res = await call('editplace', { uids, name: 'Changed' }, company.key);
        expect(res.http).toBe(404);
        expect(res.body).toEqual({ status: 1001, error: `${field}: place ${id} not found` });
      }
      const mine = await call('editplace', { uid: foreign.uid, name: 'Mine' }, company.key);
      expect({ http: mine.http, body: mine.body }).toEqual({ http: 404, body: { status: 1001, error: `data.uid: place ${foreign.uid} not found` } });
      expect(await names(company.key)).toEqual(['A']);
      expect(await names(other.key)).toEqual(['Foreign']);
    });

    it('validates like createplace, and wants exactly one of uid and uids', async () => {
      const company = await createCompany(api);
      const a = await create(company.key, { name: 'A', location: LJUBLJANA });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ uid: a.uid, name: '' }, 'data.name'],
        [{ uid: a.uid, radius: -5 }, 'data.radius'],
        [{ uid: a.uid, location: { lat: 100, lng: 0 } }, 'data.location.lat'],
        [{ uid: a.uid, location: null }, 'data.location'],
        [{ uid: a.uid, teams: [1] }, "data.teams[0]: team 1 is not in the company's teams_config"],
        [{ uid: a.uid, color: '#12345' }, 'data.color'],
        [{ name: 'x' }, 'data.uid: is required (or uids)'],
        [{ uid: a.uid, uids: [a.uid] }, 'data.uids: send uid or uids, not both'],
        [{ uids: [] }, 'data.uids: must name at least one place'],
      ];
      for (const [data, error] of cases) {
        const res = await call('editplace', data, company.key);
        expect({ data, status: res.body.status, ok: res.body.error?.startsWith(error) }).toEqual({ data, status: -1, ok: true });
      }
      expect((await call('getplaces', {}, company.key)).body.places).toEqual([a]);
    });

    it('workers edit and delete only with workers_create_places, and only places they see', async () => {
      const company = await createCompany(api);
      await call(
        'editcompany',
        {
          teams_config: [
            { id: 1, name: 'One' },
            { id: 2, name: 'Two' },
          ],
        },
        company.key,
      );
      const mine = await create(company.key, { name: 'Mine', location: LJUBLJANA, teams: [1] });
      const theirs = await create(company.key, { name: 'Theirs', location: LJUBLJANA, teams: [2] });
      const worker = await createMember(api, company, { role: 'worker', teams: [1] });

      expect((await call('editplace', { uid: mine.uid, radius: 5 }, worker.key)).body.status).toBe(-5);
      expect((await call('deleteplace', { uid: mine.uid }, worker.key)).body.status).toBe(-5);

      await call('editcompany', { workers_create_places: true, workers_view_places: false }, company.key);
      expect((await call('editplace', { uid: mine.uid, radius: 5 }, worker.key)).body.places[0].radius).toBe(5);
      expect((await call('editplace', { uid: theirs.uid, radius: 5 }, worker.key)).body).toEqual({
        status: 1001,
        error: `data.uid: place ${theirs.uid} not found`,
      });
      expect((await call('deleteplace', { uid: theirs.uid }, worker.key)).body).toEqual({
        status: 1001,
        error: `data.uid: place ${theirs.uid} not found`,
      });
      expect((await call('deleteplace', { uid: mine.uid }, worker.key)).body).toEqual({ status: 0, uids: [mine.uid] });
      expect(await names(company.key)).toEqual(['Theirs']);
    });
  });

  describe('deleteplace', () => {
    it('soft-deletes: gone from getplaces and new job references; jobs naming it still show it', async () => {
      const company = await createCompany(api);
      const depot = await create(company.key, { name: 'Depot', location: LJUBLJANA, radius: 150 });
      const kept = await create(company.key, { name: 'Kept', location: LJUBLJANA });
      const job = await call('createjobs', { jobs: [{ destinationName: 'Delivery', placeUid: depot.uid }] }, company.key);
      expect(job.body.status).toBe(0);
      const jobId = job.body.jobs[0].id;

      expect((await call('deleteplace', { uids: [depot.uid] }, company.key)).body).toEqual({ status: 0, uids: [depot.uid] });
      expect(await names(company.key)).toEqual(['Kept']);
      expect(await names(company.key, { uids: [depot.uid] })).toEqual([]);
      const [row] = await db.query(`SELECT deleted_at::float8 AS d FROM places WHERE id = $1`, [depot.uid]);
      expect(row.d).toBeGreaterThan(0);

      const again = await call('createjobs', { jobs: [{ destinationName: 'Another', placeUid: depot.uid }] }, company.key);
      expect(again.body).toEqual({ status: -1, error: 'data.jobs[0].placeUid: no such place' });
      const edit = await call('editjobs', { jobs: { [jobId]: { placeUid: depot.uid } } }, company.key);
      expect(edit.body.error).toBe(`data.jobs.${jobId}.placeUid: no such place`);

      // other domains (check-in events, reports) still read a deleted place's view; never another company's
      const places = api.app.get(PlacesService);
      expect(await places.placeViews(company.companyUid, [depot.uid, newId(), kept.uid])).toEqual([
        { ...depot, tsSaved: expect.any(Number) },
        kept,
      ]);
      expect(await places.placeViews((await createCompany(api)).companyUid, [depot.uid])).toEqual([]);

      const [shown] = (await call('getjobs', { id: jobId }, company.key)).body.jobs;
      expect(shown).toMatchObject({ placeUid: depot.uid, placeName: 'Depot', radius: 150 });

      // deleting again: not found (1001/404); a mixed call deletes nothing
      const twice = await call('deleteplace', { uid: depot.uid }, company.key);
      expect({ http: twice.http, body: twice.body }).toEqual({
        http: 404,
        body: { status: 1001, error: `data.uid: place ${depot.uid} not found` },
      });
      expect((await call('deleteplace', { uids: [kept.uid, depot.uid] }, company.key)).body).toEqual({
        status: 1001,
        error: `data.uids[1]: place ${depot.uid} not found`,
      });
      expect(await names(company.key)).toEqual(['Kept']);
    });
  });

  it('tenant isolation: another company’s places are unknown to every action', async () => {
    const a = await createCompany(api);
    const b = await createCompany(api);
    const pa = await create(a.key, { name: 'Of A', location: LJUBLJANA });
    await create(b.key, { name: 'Of B', location: LJUBLJANA });
    await locate(b, b.ownerUid, LJUBLJANA);
    expect(await names(b.key)).toEqual(['Of B']);
    expect(await names(b.key, { uids: [pa.uid] })).toEqual([]);
    expect(await names(b.key, { query: 'Of' })).toEqual(['Of B']);
    const [before] = (await call('getplaces', { uids: [pa.uid] }, a.key)).body.places;
    // the id an action acts on → 1001/404 (as an unknown id); an id referenced inside data → -1/400
    for (const [act, data] of [
      ['editplace', { uid: pa.uid, name: 'Stolen', radius: 9 }],
      ['deleteplace', { uid: pa.uid }],
    ] as const) {
      const res = await call(act, data, b.key);
      expect({ act, http: res.http, body: res.body }).toEqual({
        act,
        http: 404,
        body: { status: 1001, error: `data.uid: place ${pa.uid} not found` },
      });
    }
    const ref = await call('createjobs', { jobs: [{ placeUid: pa.uid }] }, b.key);
    expect({ http: ref.http, body: ref.body }).toEqual({ http: 400, body: { status: -1, error: 'data.jobs[0].placeUid: no such place' } });
    expect(await names(a.key)).toEqual(['Of A']);
    expect((await call('getplaces', { uids: [pa.uid] }, a.key)).body.places).toEqual([before]);
  });
});
