import { JOB_SELECT_SQL } from '@app/jobs';
import { ZonesService } from '@app/zones';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/**
 * The zone actions over real HTTP and PostgreSQL/PostGIS (CONTRACTS.md "Alerts and zones", "Roles for
 * wave 2"; docs/zones.md): CRUD and its answers, the polygon rules (ours and PostGIS'), jobs'
 * `linkedZones` derived by the spatial join — edges, vertices, holes, the place fallback — following
 * zone edits and deletes without writing a job or an event, tenant isolation and permissions.
 */
describe('zones', () => {
  let api: TestApi;
  let db: DataSource;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  const call = <T = any>(name: string, data: unknown, key: string) => action<T>(api, name, data, { key });

  /** A closed rectangle ring, counter-clockwise from its south-west corner: [lng, lat] pairs. */
  const rect = (west: number, south: number, east: number, north: number) => [
    [west, south],
    [east, south],
    [east, north],
    [west, north],
    [west, south],
  ];
  const polygon = (...rings: number[][][]) => ({ type: 'Polygon', coordinates: rings });
  /** ~7.7 km × 11 km near Ljubljana, with a hole in its middle. */
  const SHELL = rect(14.5, 46.0, 14.6, 46.1);
  const HOLE = rect(14.53, 46.03, 14.57, 46.07);

  async function createZone(key: string, data: Record<string, unknown>) {
    const res = await call('createzone', data, key);
    expect(res.body).toMatchObject({ status: 0 });
    return res.body.zone;
  }
  async function createJob(key: string, job: Record<string, unknown>): Promise<string> {
    const res = await call('createjobs', { jobs: [{ destinationName: 'J', ...job }] }, key);
    expect(res.body.status).toBe(0);
    return res.body.jobs[0].id as string;
  }
  async function linkedZones(key: string, ids: string[]): Promise<string[]> {
    const res = await call('getjobs', { ids }, key);
    expect(res.body.status).toBe(0);
    const byId = new Map((res.body.jobs as Array<{ id: string; linkedZones: string }>).map((j) => [j.id, j.linkedZones]));
    return ids.map((id) => byId.get(id)!);
  }
  const eventCount = async (c: TestCompany) =>
    (await db.query(`SELECT count(*)::int AS n FROM outbox_events WHERE company_id = $1`, [c.companyUid]))[0].n as number;
  const setTeams = async (c: TestCompany, ids: number[]) =>
    expect((await call('editcompany', { teams_config: ids.map((id) => ({ id, name: `Team ${id}` })) }, c.key)).body.status).toBe(0);

  describe('createzone, getzones, editzone, deletezone', () => {
    it('createzone answers {status, id, zone}; the exterior is stored counter-clockwise whatever was sent', async () => {
      const c = await createCompany(api);
      await setTeams(c, [1, 2]);
      const before = Date.now();
      const clockwise = [...SHELL].reverse();
      const res = await call(
        'createzone',
        { name: 'North depot', polygon: polygon(clockwise), danger: true, teams: [2, 1, 2], color: '#aa00FF' },
        c.key,
      );
      expect(res.http).toBe(200);
      expect(res.body).toEqual({
        status: 0,
        id: expect.stringMatching(/^[0-9A-Z]{26}$/),
        zone: {
          id: res.body.id,
          name: 'North depot',
          polygon: polygon(SHELL),
          danger: true,
          teams: [1, 2],
          color: '#aa00FF',
          tsCreated: expect.any(Number),
          tsSaved: res.body.zone.tsCreated,
        },
      });
      expect(res.body.zone.tsCreated).toBeGreaterThanOrEqual(before);
      const [row] = await db.query(`SELECT company_id, deleted_at, ST_NPoints(polygon::geometry) AS n FROM zones WHERE id = $1`, [
        res.body.id,
      ]);
      expect(row).toEqual({ company_id: c.companyUid, deleted_at: null, n: 5 });
    });

    it('defaults: danger false, teams [], color ""; a hole comes back clockwise; coordinates keep their decimals', async () => {
      const c = await createCompany(api);
      const ring = [
        [14.5058, 46.0569],
        [14.7001, 46.0001],
        [14.6123456789, 46.1987654321],
        [14.5058, 46.0569],
      ];
      const zone = await createZone(c.key, { name: 'Odd', polygon: polygon(ring) });
      expect(zone).toMatchObject({ danger: false, teams: [], color: '', polygon: polygon(ring) });
      const holed = await createZone(c.key, { name: 'Ring', polygon: polygon(SHELL, HOLE) });
      expect(holed.polygon).toEqual(polygon(SHELL, [...HOLE].reverse()));
    });

    it('getzones lists live zones in creation order, or those of ids (unknown and other ids absent)', async () => {
      const c = await createCompany(api);
      const a = await createZone(c.key, { name: 'A', polygon: polygon(SHELL) });
      const b = await createZone(c.key, { name: 'B', polygon: polygon(rect(15, 45, 15.1, 45.1)) });
      expect((await call('getzones', {}, c.key)).body).toEqual({ status: 0, zones: [a, b] });
      expect((await call('getzones', { ids: [b.id, '01ARZ3NDEKTSV4RRFFQ69G5FAV'] }, c.key)).body.zones).toEqual([b]);
      expect((await call('getzones', { ids: [] }, c.key)).body.zones).toEqual([]);
      expect((await call('getzones', { ids: 'x' }, c.key)).body).toMatchObject({
        status: -1,
        error: expect.stringMatching(/^data\.ids: /),
      });
    });

    it('editzone changes only the fields sent and answers {status, zone}; tsSaved moves', async () => {
      const c = await createCompany(api);
      await setTeams(c, [4]);
      const zone = await createZone(c.key, { name: 'Old', polygon: polygon(SHELL), color: '#000000', danger: true });
      await new Promise((r) => setTimeout(r, 5));
      const renamed = await call('editzone', { id: zone.id, name: 'New' }, c.key);
      expect(renamed.body).toEqual({ status: 0, zone: { ...zone, name: 'New', tsSaved: expect.any(Number) } });
      expect(renamed.body.zone.tsSaved).toBeGreaterThan(zone.tsSaved);
      const moved = await call(
        'editzone',
        { id: zone.id, polygon: polygon(rect(1, 1, 1.1, 1.1)), teams: [4], danger: false, color: '' },
        c.key,
      );
      expect(moved.body.zone).toMatchObject({ name: 'New', polygon: polygon(rect(1, 1, 1.1, 1.1)), teams: [4], danger: false, color: '' });
      expect((await call('getzones', { ids: [zone.id] }, c.key)).body.zones).toEqual([moved.body.zone]);
      // a bad polygon in an edit writes nothing
      const bad = await call('editzone', { id: zone.id, name: 'Never', polygon: polygon(rect(0, 0, 2, 2)) }, c.key);
      expect(bad.body.status).toBe(-1);
      expect((await call('getzones', { ids: [zone.id] }, c.key)).body.zones[0].name).toBe('New');
    });

    it('deletezone {id | ids} soft-deletes: gone from getzones and editzone, the row kept; unknown ids → 1001/404, nothing deleted', async () => {
      const c = await createCompany(api);
      const a = await createZone(c.key, { name: 'A', polygon: polygon(SHELL) });
      const b = await createZone(c.key, { name: 'B', polygon: polygon(SHELL) });
      const d = await createZone(c.key, { name: 'D', polygon: polygon(SHELL) });
      expect((await call('deletezone', { id: a.id }, c.key)).body).toEqual({ status: 0 });
      expect((await call('getzones', {}, c.key)).body.zones.map((z: { name: string }) => z.name)).toEqual(['B', 'D']);
      const back = await call('editzone', { id: a.id, name: 'Back' }, c.key);
      expect({ http: back.http, body: back.body }).toEqual({ http: 404, body: { status: 1001, error: `data.id: zone ${a.id} not found` } });
      expect((await call('deletezone', { id: a.id }, c.key)).body).toEqual({ status: 1001, error: `data.id: zone ${a.id} not found` });
      expect((await call('deletezone', { ids: [b.id, a.id] }, c.key)).body).toEqual({ status: 1001, error: `data.ids[1]: zone ${a.id} not found` });
      expect((await call('getzones', {}, c.key)).body.zones).toHaveLength(2);
      expect((await call('deletezone', { ids: [b.id, d.id, b.id] }, c.key)).body).toEqual({ status: 0 });
      expect((await call('getzones', {}, c.key)).body.zones).toEqual([]);
      const rows = await db.query(`SELECT count(*)::int AS n FROM zones WHERE company_id = $1 AND deleted_at IS NOT NULL`, [c.companyUid]);
      expect(rows[0].n).toBe(3);
      // other domains still name a deleted zone (a firing's zone {id, name})
      expect(await api.app.get(ZonesService).zoneRefs(c.companyUid, [a.id])).toEqual([
        { id: a.id, name: 'A', danger: false, deletedAt: expect.any(Number) },
      ]);
      expect((await call('deletezone', {}, c.key)).body).toEqual({ status: -1, error: 'data.id: is required (or ids)' });
      expect((await call('deletezone', { id: b.id, ids: [b.id] }, c.key)).body).toEqual({
        status: -1,
        error: 'data.ids: send id or ids, not both',
      });
      expect((await call('deletezone', { ids: [] }, c.key)).body).toEqual({ status: -1, error: 'data.ids: must name at least one zone' });
    });

    it('a team a live zone lists cannot leave teams_config; once the zone is deleted it can', async () => {
      const c = await createCompany(api);
      await setTeams(c, [1, 2]);
      const zone = await createZone(c.key, { name: 'Z', polygon: polygon(SHELL), teams: [2] });
      const res = await call('editcompany', { teams_config: [{ id: 1, name: 'Team 1' }] }, c.key);
      expect(res.body.status).toBe(-1);
      expect(res.body.error).toMatch(/zones/);
      expect((await call('deletezone', { id: zone.id }, c.key)).body.status).toBe(0);
      await setTeams(c, [1]);
    });
  });

  describe('validation: -1/400 naming the field and the rule', () => {
    let c: TestCompany;
    beforeAll(async () => {
      c = await createCompany(api);
      await setTeams(c, [1]);
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      ['open ring', { polygon: polygon(SHELL.slice(0, 4)) }, /^data\.polygon\.coordinates\[0\]: the ring must be closed/],
      [
        'an open hole',
        { polygon: polygon(SHELL, HOLE.slice(0, 4).concat([[14.53, 46.05]])) },
        /^data\.polygon\.coordinates\[1\]: the ring must be closed/,
      ],
      [
        'bow-tie (self-intersection)',
        {
          polygon: polygon([
            [14.5, 46.0],
            [14.6, 46.1],
            [14.6, 46.0],
            [14.5, 46.1],
            [14.5, 46.0],
          ]),
        },
        /^data\.polygon: must be a valid polygon; PostGIS says: Self-intersection\[14\.55\d* 46\.05\d*\]$/,
      ],
      [
        'hole outside the shell',
        { polygon: polygon(SHELL, rect(15, 45, 15.01, 45.01)) },
        /^data\.polygon: must be a valid polygon; PostGIS says: Hole lies outside shell/,
      ],
      [
        'too large (1° × 1° at the equator: 12,309 km²)',
        { polygon: polygon(rect(0, 0, 1, 1)) },
        /^data\.polygon: must cover at most 10000 km² \(covers 12309 km²\)$/,
      ],
      [
        'lat beyond 90',
        {
          polygon: polygon([
            [0, 0],
            [1, 0],
            [1, 91],
            [0, 0],
          ]),
        },
        /^data\.polygon\.coordinates\[0\]\[2\]\[1\]: lat must be in \[-90, 90\]$/,
      ],
      [
        'lng beyond 180',
        {
          polygon: polygon([
            [0, 0],
            [181, 0],
            [1, 1],
            [0, 0],
          ]),
        },
        /^data\.polygon\.coordinates\[0\]\[1\]\[0\]: lng must be in \[-180, 180\]$/,
      ],
      [
        'a coordinate not a number',
        { polygon: polygon([[0, 0], [1, '0'] as unknown as number[], [1, 1], [0, 0]]) },
        /^data\.polygon\.coordinates\[0\]\[1\]: must be a position \[lng, lat\]/,
      ],
      [
        'too few positions',
        {
          polygon: polygon([
            [0, 0],
            [1, 0],
            [0, 0],
          ]),
        },
        /^data\.polygon\.coordinates\[0\]: a linear ring needs at least 4 positions/,
      ],
      ['not a Polygon', { polygon: { type: 'Point', coordinates: [0, 0] } }, /^data\.polygon\.type: must be "Polygon"$/],
      ['polygon missing', { polygon: undefined }, /^data\.polygon: must be a GeoJSON Polygon/],
      ['polygon a string', { polygon: 'POLYGON((0 0, 1 0, 1 1, 0 0))' }, /^data\.polygon: must be a GeoJSON Polygon/],
      ['unknown team', { teams: [1, 7] }, /^data\.teams\[1\]: team 7 is not in the company's teams_config$/],
      ['teams not integers', { teams: ['1'] }, /^data\.teams: must be an array of team ids/],
      ['color', { color: 'red' }, /^data\.color: must be a hex color #RRGGBB, or ""$/],
      ['danger not a boolean', { danger: 1 }, /^data\.danger: /],
      ['name empty', { name: '' }, /^data\.name: /],
      ['unknown field', { radius: 5 }, /^data\.radius: unknown field$/],
    ])('createzone: %s', async (_label, fields, error) => {
      const res = await call('createzone', { name: 'Z', polygon: polygon(SHELL), ...fields }, c.key);
      expect(res.http).toBe(400);
      expect(res.body.status).toBe(-1);
      expect(res.body.error).toMatch(error);
    });

    it('nothing was written by the refused calls', async () => {
      expect((await call('getzones', {}, c.key)).body.zones).toEqual([]);
    });

    it('editzone: id required; the same rules for the fields sent', async () => {
      expect((await call('editzone', { name: 'X' }, c.key)).body.error).toMatch(/^data\.id: /);
      const zone = await createZone(c.key, { name: 'Z', polygon: polygon(SHELL) });
      expect((await call('editzone', { id: zone.id, polygon: polygon(SHELL.slice(0, 4)) }, c.key)).body.error).toMatch(
        /^data\.polygon\.coordinates\[0\]: the ring must be closed/,
      );
      expect((await call('editzone', { id: zone.id, teams: [9] }, c.key)).body.error).toBe(
        "data.teams[0]: team 9 is not in the company's teams_config",
      );
      expect((await call('deletezone', { id: zone.id }, c.key)).body.status).toBe(0);
    });
  });

  describe("jobs' linkedZones: the zones covering the destination, derived on read", () => {
    let c: TestCompany;
    let ring: { id: string };
    let jobs: Record<string, string>;

    beforeAll(async () => {
      c = await createCompany(api);
      ring = await createZone(c.key, { name: 'Ring', polygon: polygon(SHELL, HOLE) });
      const at = (lng: number, lat: number) => createJob(c.key, { destinationLat: lat, destinationLng: lng });
      jobs = {
        inside: await at(14.51, 46.01),
        onWestEdge: await at(14.5, 46.05), // a meridian: a geodesic, so exactly on the edge
        onNorthEastVertex: await at(14.6, 46.1),
        inHole: await at(14.55, 46.05),
        // PostGIS' geography ST_Covers counts a hole's boundary as the hole's (docs/zones.md)
        onHoleWestEdge: await at(14.53, 46.05),
        justWest: await at(14.4999, 46.05),
        // the southern edge is a geodesic, bowing north of the parallel 46.0: a point on the parallel
        // midway between its ends lies outside (docs/zones.md "Edges are geodesics")
        onSouthParallel: await at(14.55, 46.0),
        noPosition: await createJob(c.key, {}),
      };
    });

    it('inside, on an outer edge and on a vertex → the zone; in the hole or on its edge, outside or without a position → ""', async () => {
      const names = Object.keys(jobs);
      const got = await linkedZones(c.key, Object.values(jobs));
      expect(Object.fromEntries(names.map((n, i) => [n, got[i]]))).toEqual({
        inside: ring.id,
        onWestEdge: ring.id,
        onNorthEastVertex: ring.id,
        inHole: '',
        onHoleWestEdge: '',
        justWest: '',
        onSouthParallel: '',
        noPosition: '',
      });
    });

    it("several zones: ids comma-joined in creation order; a job without coordinates uses its place's location", async () => {
      const small = await createZone(c.key, { name: 'Small', polygon: polygon(rect(14.505, 46.005, 14.515, 46.015)) });
      const place = await call('createplace', { name: 'Depot', location: { lat: 46.01, lng: 14.51 } }, c.key);
      expect(place.body.status).toBe(0);
      const viaPlace = await createJob(c.key, { placeUid: place.body.uid });
      const ownWins = await createJob(c.key, { placeUid: place.body.uid, destinationLat: 46.05, destinationLng: 14.55 });
      expect(await linkedZones(c.key, [jobs.inside, viaPlace, ownWins])).toEqual([`${ring.id},${small.id}`, `${ring.id},${small.id}`, '']);
      // createjobs' own answer carries it too (the INSERT … RETURNING read model)
      const created = await call('createjobs', { jobs: [{ destinationName: 'Now', destinationLat: 46.01, destinationLng: 14.51 }] }, c.key);
      expect(created.body.jobs[0].linkedZones).toBe(`${ring.id},${small.id}`);
      expect((await call('deletezone', { id: small.id }, c.key)).body.status).toBe(0);
    });

    it('follows editzone and deletezone with no job written and no event', async () => {
      const ids = [jobs.inside, jobs.inHole];
      const [before] = await db.query(
        `SELECT json_agg(json_build_object('id', id, 'v', version, 's', ts_saved) ORDER BY id) AS s FROM jobs WHERE id = ANY($1)`,
        [ids],
      );
      const events = await eventCount(c);

      // the hole removed: the job in it is now inside
      expect((await call('editzone', { id: ring.id, polygon: polygon(SHELL) }, c.key)).body.status).toBe(0);
      expect(await linkedZones(c.key, ids)).toEqual([ring.id, ring.id]);
      // moved away
      expect((await call('editzone', { id: ring.id, polygon: polygon(rect(20, 40, 20.1, 40.1)) }, c.key)).body.status).toBe(0);
      expect(await linkedZones(c.key, ids)).toEqual(['', '']);
      // back, then deleted
      expect((await call('editzone', { id: ring.id, polygon: polygon(SHELL) }, c.key)).body.status).toBe(0);
      expect(await linkedZones(c.key, ids)).toEqual([ring.id, ring.id]);
      expect((await call('deletezone', { id: ring.id }, c.key)).body.status).toBe(0);
      expect(await linkedZones(c.key, ids)).toEqual(['', '']);

      const [after] = await db.query(
        `SELECT json_agg(json_build_object('id', id, 'v', version, 's', ts_saved) ORDER BY id) AS s FROM jobs WHERE id = ANY($1)`,
        [ids],
      );
      expect(after.s).toEqual(before.s);
      expect(await eventCount(c)).toBe(events);
    });

    it("a job's event payload carries linkedZones as read in the event's transaction", async () => {
      const zone = await createZone(c.key, { name: 'Evented', polygon: polygon(SHELL) });
      const id = await createJob(c.key, { destinationLat: 46.01, destinationLng: 14.51 });
      const [event] = await db.query(`SELECT payload FROM outbox_events WHERE company_id = $1 AND form_id = $2 AND action = 'jobcreated'`, [
        c.companyUid,
        id,
      ]);
      const [sent] = JSON.parse(event.payload as string) as Array<{ id: string; linkedZones: string }>;
      expect(sent).toMatchObject({ id, linkedZones: zone.id });
      expect((await call('deletezone', { id: zone.id }, c.key)).body.status).toBe(0);
    });

    it('getjobs reads linkedZones through the GiST index (many zones in the company)', async () => {
      const busy = await createCompany(api);
      // 300 small zones on a grid, through SQL (the actions are tested above)
      await db.query(
        `INSERT INTO zones (id, company_id, name, polygon, created_at)
         SELECT $2 || lpad(i::text, 6, '0'), $1, 'z' || i,
                ST_MakeEnvelope(10 + (i % 20) * 0.01, 40 + (i / 20) * 0.01, 10.005 + (i % 20) * 0.01, 40.005 + (i / 20) * 0.01, 4326)::geography, 0
           FROM generate_series(1, 300) i`,
        [busy.companyUid, busy.companyUid.slice(0, 20)],
      );
      await db.query('ANALYZE zones');
      const job = await createJob(busy.key, { destinationLat: 40.052, destinationLng: 10.052 });
      expect(await linkedZones(busy.key, [job])).toEqual([`${busy.companyUid.slice(0, 20)}000105`]);
      const plan = await db.query(`EXPLAIN ${JOB_SELECT_SQL} WHERE j.company_id = $1 AND j.id = ANY($2::text[])`, [busy.companyUid, [job]]);
      expect(plan.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n')).toMatch(/IDX_zones_company_polygon/);
    });
  });

  describe('zonesAt (the lookup dispatch and alerts use)', () => {
    it('answers per point, in order: covering zone ids ascending and the union of their teams; null points get none', async () => {
      const c = await createCompany(api);
      await setTeams(c, [1, 2, 3]);
      const a = await createZone(c.key, { name: 'A', polygon: polygon(SHELL), teams: [3, 1] });
      const b = await createZone(c.key, { name: 'B', polygon: polygon(rect(14.5, 46.0, 14.52, 46.02)), teams: [2] });
      const zones = api.app.get(ZonesService);
      expect(await zones.zonesAt(c.companyUid, [{ lat: 46.01, lng: 14.51 }, null, { lat: 46.05, lng: 14.55 }, { lat: 0, lng: 0 }])).toEqual(
        [
          { zoneIds: [a.id, b.id], teams: [1, 2, 3] },
          { zoneIds: [], teams: [] },
          { zoneIds: [a.id], teams: [1, 3] },
          { zoneIds: [], teams: [] },
        ],
      );
      expect(await zones.zonesAt(c.companyUid, [])).toEqual([]);
      expect(await zones.zonesAt((await createCompany(api)).companyUid, [{ lat: 46.01, lng: 14.51 }])).toEqual([
        { zoneIds: [], teams: [] },
      ]);
    });
  });

  it("tenant isolation: another company's zones are unknown to every action and to its jobs", async () => {
    const a = await createCompany(api);
    const b = await createCompany(api);
    const za = await createZone(a.key, { name: 'Of A', polygon: polygon(SHELL) });
    const zb = await createZone(b.key, { name: 'Of B', polygon: polygon(rect(14.5, 46.0, 14.52, 46.02)) });
    expect((await call('getzones', {}, b.key)).body.zones).toEqual([zb]);
    expect((await call('getzones', { ids: [za.id] }, b.key)).body.zones).toEqual([]);
    for (const [act, data, field] of [
      ['editzone', { id: za.id, name: 'Stolen' }, 'data.id'],
      ['deletezone', { id: za.id }, 'data.id'],
      ['deletezone', { ids: [zb.id, za.id] }, 'data.ids[1]'],
    ] as const) {
      const res = await call(act, data, b.key);
      expect({ act, http: res.http, body: res.body }).toEqual({ act, http: 404, body: { status: 1001, error: `${field}: zone ${za.id} not found` } });
    }
    // nothing changed: A's zone as it was, B's zone not deleted by the mixed call
    expect((await call('getzones', {}, a.key)).body.zones).toEqual([za]);
    expect((await call('getzones', {}, b.key)).body.zones).toEqual([zb]);
    const jobOfB = await createJob(b.key, { destinationLat: 46.01, destinationLng: 14.51 });
    expect(await linkedZones(b.key, [jobOfB])).toEqual([zb.id]);
    expect(await api.app.get(ZonesService).zoneRefs(b.companyUid, [za.id, zb.id])).toEqual([
      { id: zb.id, name: 'Of B', danger: false, deletedAt: null },
    ]);
    expect((await call('getzones', {}, a.key)).body.zones).toEqual([za]);
  });

  it('permissions: every role reads zones; only administrators and operators write them', async () => {
    const c = await createCompany(api);
    const op = await createMember(api, c, { role: 'operator' });
    const worker = await createMember(api, c, { role: 'worker' });
    const zone = await createZone(op.key, { name: 'By operator', polygon: polygon(SHELL) });
    expect((await call('editzone', { id: zone.id, name: 'Edited by operator' }, op.key)).body.status).toBe(0);
    expect((await call('getzones', {}, worker.key)).body).toEqual({
      status: 0,
      zones: [{ ...zone, name: 'Edited by operator', tsSaved: expect.any(Number) }],
    });
    for (const [name, data] of [
      ['createzone', { name: 'W', polygon: polygon(SHELL) }],
      ['editzone', { id: zone.id, name: 'W' }],
      ['deletezone', { id: zone.id }],
    ] as const) {
      const res = await call(name, data, worker.key);
      expect(res.http).toBe(403);
      expect(res.body.status).toBe(-5);
    }
    expect((await call('getzones', {}, c.key)).body.zones).toHaveLength(1);
    expect((await call('deletezone', { id: zone.id }, op.key)).body).toEqual({ status: 0 });
  });
});
