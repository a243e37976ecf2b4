import { AuthContext } from '@app/core';
import { getPlacesSql, PlacesService } from '@app/places';
import pg from 'pg';
import { TestApi } from '../test/support/api';
import { fmt, markdownTable, percentile, post } from './stats';
import { mulberry32 } from '@app/dispatch/pure';

/** Where the caller stands, and the centre of the seeded places (Ljubljana). */
const CENTRE = { lat: 46.0569, lng: 14.5058 };

export interface PlacesBenchConfig {
  api: TestApi;
  pool: pg.Pool;
  key: string;
  companyId: string;
  memberId: string;
  /** other companies, whose places share the area (tenant scoping is part of the cost) */
  otherCompanyIds: string[];
  places: number;
  /** getplaces `max` */
  max: number;
  warmups: number;
  iterations: number;
  log: (line: string) => void;
}

export interface PlacesFigures {
  places: number;
  otherPlaces: number;
  max: number;
  iterations: number;
  ours: { p50: number; p95: number };
  baseline: { p50: number; p95: number };
  /** `PlacesService.getPlaces` called in-process (no HTTP, auth, pipe or JSON) */
  service: { p50: number; p95: number };
  explain: string;
}

/** The target: getplaces over 10,000 places, nearest 500, p95 ms. */
export const PLACES_P95_TARGET_MS = 20;

/**
 * The baseline: the same KNN through raw `pg` — the company's live places nearest the caller's
 * position (given as parameters), the view's columns, no framework, no auth, no geodesic re-sort,
 * no JSON. Exactly what an index-assisted `ORDER BY location <-> point LIMIT n` costs.
 */
export const BASELINE_KNN_SQL = `SELECT p.id, p.name, p.address, p.city, p.state, p.postalcode, p.country_code, p.phone, p.email,
  ST_Y(p.location::geometry) AS lat, ST_X(p.location::geometry) AS lng, p.radius, p.color, p.linked_forms, p.data, p.teams,
  p.created_at::float8, p.updated_at::float8, p.creator_id
FROM places p
WHERE p.company_id = $1 AND p.deleted_at IS NULL AND p.location IS NOT NULL
ORDER BY p.location <-> ST_SetSRID(ST_MakePoint($3, $2), 4326)::geography
LIMIT $4`;

/**
 * Seeds `n` places of a company by SQL (one INSERT from arrays): positions uniform within ±0.5° of
 * the centre (about 110 × 77 km), 1 % without a location, realistic text fields.
 */
async function seedPlaces(pool: pg.Pool, companyId: string, n: number, seed: number, creatorId: string | null): Promise<void> {
  const rnd = mulberry32(seed); // deterministic: every run seeds the same places
  const ids: string[] = [];
  const names: string[] = [];
  const lats: Array<number | null> = [];
  const lngs: Array<number | null> = [];
  for (let i = 0; i < n; i++) {
    ids.push(`B${String(seed).padStart(3, '0')}${String(i).padStart(22, '0')}`);
    names.push(`Customer ${seed}-${i} ${['Depot', 'Shop', 'Office', 'Clinic'][i % 4]}`);
    const located = i % 100 !== 99;
    lats.push(located ? CENTRE.lat + (rnd() - 0.5) : null);
    lngs.push(located ? CENTRE.lng + (rnd() - 0.5) : null);
  }
  await pool.query(
    `INSERT INTO places (id, company_id, name, address, city, country_code, radius, location, data, teams, creator_id, created_at)
     SELECT id, $1, name, 'Street ' || ord, 'Ljubljana', 'SI', 50,
            CASE WHEN lat IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(lng, lat), 4326)::geography END,
            '[{"key": "gate", "val": "B"}]'::jsonb, '[]'::jsonb, $6, $7
     FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[]) WITH ORDINALITY AS t(id, name, lat, lng, ord)`,
    [companyId, ids, names, lats, lngs, creatorId, Date.now()],
  );
}

/**
 * getplaces `{max}` over HTTP (the caller has a position: nearest first) against the same KNN
 * through raw `pg`, alternating one call of each, sequentially; p50 / p95 (nearest rank).
 */
export async function benchPlaces(cfg: PlacesBenchConfig): Promise<PlacesFigures> {
  const { pool, log } = cfg;
  await seedPlaces(pool, cfg.companyId, cfg.places, 1, cfg.memberId);
  for (const [i, other] of cfg.otherCompanyIds.entries()) await seedPlaces(pool, other, cfg.places, i + 2, null);
  await pool.query(`INSERT INTO member_locations (company_id, member_id, ts, lat, lng, updated_at) VALUES ($1, $2, $3, $4, $5, $3)`, [
    cfg.companyId,
    cfg.memberId,
    Date.now(),
    CENTRE.lat,
    CENTRE.lng,
  ]);
  await pool.query('ANALYZE places');
  log(
    `places: seeded ${cfg.places} places for the caller's company and ${cfg.places * cfg.otherCompanyIds.length} for ${cfg.otherCompanyIds.length} others`,
  );

  const url = `${cfg.api.url}/api/getplaces`;
  const body = JSON.stringify({ data: { max: cfg.max } });
  const baselineParams = [cfg.companyId, CENTRE.lat, CENTRE.lng, cfg.max];
  const ours = async () => {
    const t = performance.now();
    const res = await post(url, body, { 'api-key': cfg.key });
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`getplaces answered ${res.status}: ${res.text.slice(0, 300)}`);
    return { ms, text: res.text };
  };
  const baseline = async () => {
    const t = performance.now();
    const { rows } = await pool.query<{ id: string }>(BASELINE_KNN_SQL, baselineParams);
    return { ms: performance.now() - t, rows };
  };

  // the answer is checked once: max places, the baseline's set (nearest by the sphere, re-sorted
  // geodesically by getplaces; equal sets away from the boundary), nearest first
  const first = JSON.parse((await ours()).text) as { places: Array<{ uid: string }> };
  const base = await baseline();
  if (first.places.length !== cfg.max) throw new Error(`getplaces answered ${first.places.length} places, not ${cfg.max}`);
  const overlap = first.places.filter((p) => base.rows.some((r) => r.id === p.uid)).length;
  if (overlap < cfg.max * 0.99) throw new Error(`getplaces and the baseline share only ${overlap} of ${cfg.max} places`);
  if (first.places[0].uid !== base.rows[0].id) log('places: note — nearest place differs between sphere and geodesic');

  const places = cfg.api.app.get(PlacesService);
  const ctx = {
    companyId: cfg.companyId,
    memberId: cfg.memberId,
    role: 'administrator',
    settings: { workers_edit_job: false, workers_create_places: false, workers_view_places: true },
  } as AuthContext;
  const service = async () => {
    const t = performance.now();
    await places.getPlaces(ctx, { max: cfg.max });
    return { ms: performance.now() - t };
  };

  for (let i = 0; i < cfg.warmups; i++) {
    await ours();
    await baseline();
    await service();
  }
  const o: number[] = [];
  const b: number[] = [];
  const sv: number[] = [];
  for (let i = 0; i < cfg.iterations; i++) {
    o.push((await ours()).ms);
    b.push((await baseline()).ms);
    sv.push((await service()).ms);
  }
  // getplaces' own statement: its nearest-first branch must be the KNN scan of the company's index
  const [oursSql, oursParams] = getPlacesSql({ companyId: cfg.companyId, memberId: cfg.memberId, max: cfg.max });
  const plan = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${oursSql}`, oursParams);
  return {
    places: cfg.places,
    otherPlaces: cfg.places * cfg.otherCompanyIds.length,
    max: cfg.max,
    iterations: cfg.iterations,
    ours: { p50: percentile(o, 50), p95: percentile(o, 95) },
    baseline: { p50: percentile(b, 50), p95: percentile(b, 95) },
    service: { p50: percentile(sv, 50), p95: percentile(sv, 95) },
    explain:
      plan.rows
        .map((r) => r['QUERY PLAN'].trim())
        .filter((l, i, all) => l.includes('IDX_places_company_location') || all[i - 1]?.includes('IDX_places_company_location'))
        .join(' ')
        .replace(/\s+/g, ' ') || '(IDX_places_company_location not used)',
  };
}

/** The places rows, as the other benches print theirs. */
export function placesReport(f: PlacesFigures): { text: string; failed: number } {
  const ok = f.ours.p95 <= PLACES_P95_TARGET_MS;
  const label = `getplaces nearest ${f.max} of ${f.places.toLocaleString('en')} places`;
  const table = markdownTable(
    ['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'],
    [
      [
        `${label}: p95 ms`,
        fmt(f.ours.p95, 2),
        fmt(f.baseline.p95, 2),
        `${(f.ours.p95 / f.baseline.p95).toFixed(2)}×`,
        `≤ ${PLACES_P95_TARGET_MS} ms`,
        ok ? 'PASS' : 'FAIL',
      ],
      [`${label}: p50 ms`, fmt(f.ours.p50, 2), fmt(f.baseline.p50, 2), `${(f.ours.p50 / f.baseline.p50).toFixed(2)}×`, '—', 'info'],
      [
        `${label}: PlacesService.getPlaces in-process p50 / p95 ms`,
        `${fmt(f.service.p50, 2)} / ${fmt(f.service.p95, 2)}`,
        `${fmt(f.baseline.p50, 2)} / ${fmt(f.baseline.p95, 2)}`,
        `${(f.service.p50 / f.baseline.p50).toFixed(2)}×`,
        '—',
        'info',
      ],
    ],
  );
  const notes = [
    `getplaces: ${f.iterations} rounds of one sequential HTTP call, one baseline query and one in-process service call (raw pg, same KNN, no HTTP/auth/JSON/geodesic re-sort); ` +
      `${f.otherPlaces.toLocaleString('en')} places of other companies in the same area; getplaces' plan uses: ${f.explain}.`,
  ];
  return { text: `${table}\n\n${notes.join('\n')}\n`, failed: ok ? 0 : 1 };
}
