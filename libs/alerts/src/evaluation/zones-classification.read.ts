import { query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** A candidate zone with its class for each fix of the batch (`i` covered, `e` within the 20 m band, `o` beyond), in fix order. */
export interface ClassifiedZone {
  id: string;
  name: string;
  danger: boolean;
  classes: string;
}

/** One member's share of a zone classification: its fixes (in order) and the zones its rules watch. */
export interface ZoneRead {
  companyId: string;
  fixes: ReadonlyArray<{ lat: number; lng: number }>;
  /** zones named by its rules */
  zoneIds: string[];
  /** whether a rule watches every danger zone */
  anyDanger: boolean;
  /** zones it has a state for */
  statedIds: string[];
}

/** m: the band outside a zone's polygon that still counts as "still in" (CONTRACTS.md "Alerts and zones"). */
export const ZONE_BAND_M = 20;

/**
 * The zone classification of the `alerts` fix participant: a documented read model
 * (docs/alerts-evaluation.md) of `zones` (owned by `@app/zones`), read in the pass's transaction.
 */
@Injectable()
export class ZoneClassificationRead {
  /**
   * For each of `reads` (a member's fixes, degrees, in order, with the zones it watches), its
   * candidate zones classified against each of its fixes, in one statement, answered in the order of
   * `reads`: live zones of the member's company among `zoneIds` (watched by a rule) or, with
   * `anyDanger`, any live danger zone, that lie within {@link ZONE_BAND_M} of one of its fixes, or
   * are among `statedIds` (a member inside must be seen leaving). The GiST index of
   * `(company_id, polygon)` is probed once per member and ~1 km cell its fixes fall in (0.01° of
   * latitude and of longitude), with the cell's fixes as one multipoint: one probe for a member
   * walking about, a few for a drive — where a probe per fix cost ~45 µs each, and one box around a
   * whole batch would fetch every zone a long drive spans. Class per fix: `i` when
   * `ST_Covers(polygon, fix)`, `e` when within the band, else `o`.
   *
   * The two zone lookups are lateral subqueries fenced with `OFFSET 0`: flattened, the planner
   * (which cannot estimate `json_to_recordset`) hash-joined every member's zones with every cell and
   * ran `ST_DWithin` on each pair — 12.8 s for 16 members of the alerts bench against 0.1 s with the
   * index probed per cell (`EXPLAIN ANALYZE`, 2026-11-26).
   */
  async classifyZones(db: EntityManager, reads: readonly ZoneRead[]): Promise<ClassifiedZone[][]> {
    if (!reads.length) return [];
    const k: number[] = [];
    const lats: number[] = [];
    const lngs: number[] = [];
    for (const [i, r] of reads.entries()) {
      for (const f of r.fixes) {
        k.push(i);
        lats.push(f.lat);
        lngs.push(f.lng);
      }
    }
    const rows = await query<{ k: number; zones: ClassifiedZone[] }>(
      db,
      `WITH f AS (
         SELECT u.k, u.i, u.lat, u.lng, ST_SetSRID(ST_MakePoint(u.lng, u.lat), 4326)::geography AS g
           FROM unnest($1::int[], $2::float8[], $3::float8[]) WITH ORDINALITY AS u(k, lat, lng, i)),
       s AS (SELECT * FROM json_to_recordset($4::json) AS s(k int, c text, zone_ids text[], any_danger boolean, stated_ids text[])),
       cells AS (
         SELECT k, ST_Collect(ST_SetSRID(ST_MakePoint(lng, lat), 4326))::geography AS g FROM f GROUP BY k, floor(lat * 100), floor(lng * 100)),
       near AS (
         SELECT c.k, s.c, n.id FROM cells c JOIN s ON s.k = c.k
          CROSS JOIN LATERAL (
            SELECT z.id FROM zones z
             WHERE z.company_id = s.c AND z.deleted_at IS NULL AND ST_DWithin(z.polygon, c.g, ${ZONE_BAND_M})
               AND (z.id = ANY(s.zone_ids) OR (s.any_danger AND z.danger))
            OFFSET 0) n),
       stated AS (
         SELECT s.k, s.c, n.id FROM s CROSS JOIN LATERAL (
            SELECT z.id FROM zones z
             WHERE z.id = ANY(s.stated_ids) AND z.company_id = s.c AND z.deleted_at IS NULL
               AND (z.id = ANY(s.zone_ids) OR (s.any_danger AND z.danger))
            OFFSET 0) n),
       cand AS (SELECT k, c, id FROM near UNION SELECT k, c, id FROM stated),
       classified AS (
         SELECT c.k, z.id, z.name, z.danger,
                string_agg(CASE WHEN ST_Covers(z.polygon, f.g) THEN 'i' WHEN ST_DWithin(z.polygon, f.g, ${ZONE_BAND_M}) THEN 'e' ELSE 'o' END, '' ORDER BY f.i) AS classes
           FROM cand c JOIN zones z ON z.company_id = c.c AND z.id = c.id JOIN f ON f.k = c.k
          GROUP BY c.k, z.id, z.name, z.danger)
       SELECT k, json_agg(json_build_object('id', id, 'name', name, 'danger', danger, 'classes', classes)) AS zones
         FROM classified GROUP BY k`,
      [
        k,
        lats,
        lngs,
        JSON.stringify(
          reads.map((r, i) => ({ k: i, c: r.companyId, zone_ids: r.zoneIds, any_danger: r.anyDanger, stated_ids: r.statedIds })),
        ),
      ],
    );
    const byK = new Map(rows.map((r) => [r.k, r.zones]));
    return reads.map((_, i) => byK.get(i) ?? []);
  }
}
