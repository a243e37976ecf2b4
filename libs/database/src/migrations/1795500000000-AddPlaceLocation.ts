import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostGIS (CONTRACTS.md "Geo"): creates the extension and turns `places`' `lat`/`lng` double columns
 * into one `location geography(Point, 4326)` with a GiST index, moving each place's coordinates over
 * (a place with either coordinate null gets a null location). Down restores `lat`/`lng` from the
 * points and keeps the extension (later tables use it; dropping it is an operator's decision).
 */
export class AddPlaceLocation1795500000000 implements MigrationInterface {
  name = 'AddPlaceLocation1795500000000';

  async up(q: QueryRunner): Promise<void> {
    const [available] = await q.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'`);
    if (!available)
      throw new Error(
        'PostGIS is not installed on this PostgreSQL server: run `bash scripts/postgis.sh` (Debian: apt-get install postgresql-<major>-postgis-3), or use the postgis/postgis image',
      );
    await q.query(`CREATE EXTENSION IF NOT EXISTS postgis`);
    await q.query(`ALTER TABLE "places" ADD "location" geography(Point,4326)`);
    // GeoJSON and PostGIS points are (x, y) = (lng, lat)
    await q.query(
      `UPDATE "places" SET "location" = ST_SetSRID(ST_MakePoint("lng", "lat"), 4326)::geography WHERE "lat" IS NOT NULL AND "lng" IS NOT NULL`,
    );
    await q.query(`ALTER TABLE "places" DROP COLUMN "lat"`);
    await q.query(`ALTER TABLE "places" DROP COLUMN "lng"`);
    await q.query(`CREATE INDEX "IDX_places_location" ON "places" USING GiST ("location") `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_places_location"`);
    await q.query(`ALTER TABLE "places" ADD "lat" double precision`);
    await q.query(`ALTER TABLE "places" ADD "lng" double precision`);
    await q.query(
      `UPDATE "places" SET "lat" = ST_Y("location"::geometry), "lng" = ST_X("location"::geometry) WHERE "location" IS NOT NULL`,
    );
    await q.query(`ALTER TABLE "places" DROP COLUMN "location"`);
  }
}
