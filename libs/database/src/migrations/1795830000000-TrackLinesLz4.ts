import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `tracks.path`, `short_encoded` and `course_encoded` compressed with lz4 where the server has it
 * (PostgreSQL 14+ built with lz4, as Debian's is; as `report_chunks.data`). An append rewrites the open
 * track's three values whole (TOAST has no in-place append), and with pglz most of that rewrite was
 * pglz trying to compress the path's coordinates, which it mostly gives up on: on a 20,000-fix track
 * the append's UPDATE took about half the time with lz4 (docs/tracks.md "Cost"). Values already
 * stored keep pglz until they are next written; readers see no difference.
 */
export class TrackLinesLz41795830000000 implements MigrationInterface {
  name = 'TrackLinesLz41795830000000';

  async up(q: QueryRunner): Promise<void> {
    // a server without lz4 keeps the default (pglz): slower appends, the same answers
    await q.query(
      `DO $$ BEGIN ALTER TABLE "tracks" ALTER COLUMN "path" SET COMPRESSION lz4, ALTER COLUMN "short_encoded" SET COMPRESSION lz4, ALTER COLUMN "course_encoded" SET COMPRESSION lz4; EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL; END $$`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "tracks" ALTER COLUMN "path" SET COMPRESSION DEFAULT, ALTER COLUMN "short_encoded" SET COMPRESSION DEFAULT, ALTER COLUMN "course_encoded" SET COMPRESSION DEFAULT`,
    );
  }
}
