import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `tracks.build_state`: the open track's running figures (JSON), so the worker extends a growing
 * track by its new fixes instead of re-reading all of them on every build (docs/tracks.md). Existing
 * open tracks start without it and are rebuilt once the usual way.
 */
export class AddTrackBuildState1795720000000 implements MigrationInterface {
  name = 'AddTrackBuildState1795720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "tracks" ADD "build_state" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "tracks" DROP COLUMN "build_state"`);
  }
}
