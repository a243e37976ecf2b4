import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Report runs remember the primary's WAL position at their creation (issue #29, item 3: a read
 * replica). `worker_runs` gains `read_lsn` (`pg_current_wal_insert_lsn()` as `pg_lsn` text, e.g.
 * `16/B374D848`; null for runs that read on the primary only, and for runs made before this): the
 * worker's report cursors read from `DATABASE_REPLICA_URL` once it has replayed past it
 * (docs/scaling.md, "Read replica"). Text, not `pg_lsn`, because TypeORM has no `pg_lsn` column type
 * (the drift check must see the entity's own type). Online: a nullable column without a default.
 */
export class AddRunReadLsn1796080000000 implements MigrationInterface {
  name = 'AddRunReadLsn1796080000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "worker_runs" ADD "read_lsn" character varying(17)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "worker_runs" DROP COLUMN "read_lsn"`);
  }
}
