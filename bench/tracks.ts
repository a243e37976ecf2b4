/**
 * Track building benchmark (`BENCH_ONLY=tracks`, also part of the full run): the `tracks` fix
 * consumer's rebuild of a member's history — the real korita-zbevnica trace (513 timed fixes, 11
 * tracks) — vs a baseline of the same transaction's bare reads (advisory lock, the fixes, the
 * tracking-off events and the stored tracks, no splitting, figures or writes): what the split rule,
 * the figures and the comparison with the stored tracks add to the I/O every rebuild needs. Each side
 * runs in this process on the same database, alternating, after a warm-up.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { TrackBuilder } from '@app/locations';
import { createCompany, createMember, TestApi } from '../test/support/api';
import { parseGpxFixes } from '../test/support/gpx';
import { GPX_FIXTURES_DIR } from '../test/support/fixtures-dir';
import { fmt } from './stats';

/** A rebuild may take at most this many times the bare reads. */
export const TRACKS_TARGET_RATIO = 4;
const ITERATIONS = Number(process.env.BENCH_TRACKS_ITERATIONS ?? 40);
const WARMUPS = 5;

export interface TrackFigures {
  fixes: number;
  tracks: number;
  /** ms per rebuild, p50 */
  ours: number;
  baseline: number;
  iterations: number;
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

export async function benchTracks(opts: { api: TestApi; pool: pg.Pool; log: (line: string) => void }): Promise<TrackFigures> {
  const { api, pool, log } = opts;
  const company = await createCompany(api, { name: 'Bench tracks' });
  const member = await createMember(api, company);
  const trace = parseGpxFixes(readFileSync(path.join(GPX_FIXTURES_DIR, 'korita-zbevnica.gpx'), 'utf8'));
  const delta = Date.now() - 30 * 60_000 - trace[trace.length - 1].ts;
  const fixes = trace.map((f) => ({ ...f, ts: f.ts + delta }));
  await pool.query(`SELECT location_fixes_ensure_partition($1)`, [fixes[0].ts]);
  await pool.query(
    `INSERT INTO location_fixes (company_id, member_id, ts, lat, lng, elv, received_at)
     SELECT $1, $2, u.ts, u.lat, u.lng, u.elv, $3 FROM unnest($4::bigint[], $5::float8[], $6::float8[], $7::int[]) AS u(ts, lat, lng, elv)`,
    [
      company.companyUid,
      member.uid,
      Date.now(),
      fixes.map((f) => f.ts),
      fixes.map((f) => f.lat),
      fixes.map((f) => f.lng),
      fixes.map((f) => f.elv),
    ],
  );
  const builder = api.app.get(TrackBuilder);
  const from = fixes[0].ts;
  const first = await builder.rebuild(company.companyUid, member.uid, from);
  log(`tracks: ${fixes.length} fixes → ${first.inserted} tracks`);

  const baseline = async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`tracks:${company.companyUid}:${member.uid}`]);
      await client.query(
        `SELECT ts, lat, lng, acc, dir, spd, elv, bat FROM location_fixes WHERE company_id = $1 AND member_id = $2 AND ts >= $3 ORDER BY ts`,
        [company.companyUid, member.uid, -1],
      );
      await client.query(
        `SELECT ts FROM clock_events WHERE company_id = $1 AND member_id = $2 AND tracking = false AND ts >= $3 ORDER BY ts`,
        [company.companyUid, member.uid, -1],
      );
      await client.query(`SELECT * FROM tracks WHERE company_id = $1 AND member_id = $2 AND start_ts >= $3 ORDER BY start_ts`, [
        company.companyUid,
        member.uid,
        -1,
      ]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };
  // the whole history each time (fromTs before the first track: nothing to start from but the beginning)
  const ours = async () => {
    const r = await builder.rebuild(company.companyUid, member.uid, from - 1);
    if (r.inserted || r.deleted || r.updated) throw new Error(`a repeated rebuild changed rows: ${JSON.stringify(r)}`);
  };
  const time = async (fn: () => Promise<void>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  for (let i = 0; i < WARMUPS; i++) {
    await ours();
    await baseline();
  }
  const o: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    o.push(await time(ours));
    b.push(await time(baseline));
  }
  return { fixes: fixes.length, tracks: first.inserted, ours: percentile(o, 0.5), baseline: percentile(b, 0.5), iterations: ITERATIONS };
}

export function tracksReport(f: TrackFigures): { rows: string[][]; notes: string[]; failed: number } {
  const ratio = f.ours / f.baseline;
  const ok = ratio <= TRACKS_TARGET_RATIO;
  return {
    rows: [
      [
        `tracks: rebuild of ${f.fixes} fixes (${f.tracks} tracks), ms p50 (baseline: the same reads, no split/figures)`,
        fmt(f.ours, 2),
        fmt(f.baseline, 2),
        `${ratio.toFixed(2)}×`,
        `≤ ${TRACKS_TARGET_RATIO}×`,
        ok ? 'PASS' : 'FAIL',
      ],
      [
        'tracks: fixes rebuilt per second (one member, sequential)',
        fmt((f.fixes / f.ours) * 1000, 0),
        fmt((f.fixes / f.baseline) * 1000, 0),
        '—',
        '—',
        'info',
      ],
    ],
    notes: [
      `tracks: ${f.iterations} timed pairs after 5 warm-ups, alternating; a rebuild that changes nothing (the steady state of a repeated or retried task).`,
    ],
    failed: ok ? 0 : 1,
  };
}
