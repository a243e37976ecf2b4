import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * getplaces' nearest-first scan over one company's live places: a GiST index on
 * `(company_id, location) WHERE deleted_at IS NULL`. GiST needs `btree_gist` (contrib, shipped with
 * PostgreSQL) for the varchar column. Measured on 100,000 places of 10 companies, the 550 nearest of
 * one company: 39 ms through `IDX_places_location` (it walks every company's nearby places), 1.4 ms
 * through this one. Down drops the index and keeps the extension (an operator's decision).
 */
export class AddPlacesCompanyLocationIndex1795660000000 implements MigrationInterface {
  name = 'AddPlacesCompanyLocationIndex1795660000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await q.query(
      `CREATE INDEX "IDX_places_company_location" ON "places" USING GiST ("company_id", "location") WHERE "deleted_at" IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_places_company_location"`);
  }
}
