import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `cluster_maps.regions`: what the public cluster preview page draws beside the SVG — per region its
 * jobs' positions, centre and convex hull, no names (`{v: 1, regions: [{points, centre, hull}]}`;
 * libs/dispatch `ClusterPreview`; issue #27 item 5). NULL for maps stored before (at most 7 days
 * old): their page shows the SVG.
 */
export class AddClusterMapRegions1796047320000 implements MigrationInterface {
  name = 'AddClusterMapRegions1796047320000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "cluster_maps" ADD "regions" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "cluster_maps" DROP COLUMN "regions"`);
  }
}
