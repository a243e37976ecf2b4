import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * distributejobs' map previews (CONTRACTS.md "Dispatch", `maplink`): the rendered SVG under a random
 * 128-bit token, valid 7 days. A platform-wide token lookup in a small table of its own (CONTRACTS.md
 * "Geo"), like `track_shares`; read and written through SQL by `@app/dispatch` (no entity). The index
 * on `expires_at` serves the purge of expired maps.
 */
export class CreateClusterMaps1795705000000 implements MigrationInterface {
  name = 'CreateClusterMaps1795705000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "cluster_maps" ("token" character varying(32) NOT NULL, "company_id" character varying(26) NOT NULL, "svg" text NOT NULL, "created_at" bigint NOT NULL, "expires_at" bigint NOT NULL, CONSTRAINT "PK_cluster_maps_token" PRIMARY KEY ("token"))`,
    );
    await q.query(`CREATE INDEX "IDX_cluster_maps_expires_at" ON "cluster_maps" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_cluster_maps_expires_at"`);
    await q.query(`DROP TABLE "cluster_maps"`);
  }
}
