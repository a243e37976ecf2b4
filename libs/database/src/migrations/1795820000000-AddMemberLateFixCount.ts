import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `member_locations.late_fix_count`: how many ingestion calls stored a fix older than the member's
 * latest (`ts`) at the time, counted by both ingest paths under the row's lock. The track builder
 * keeps the value it read in the open track's build state; while it is unchanged, no fix has been
 * stored inside the track since, so an append no longer counts the track's fixes (docs/tracks.md
 * "Appending"). Existing open tracks' states lack it: their next append counts once, as before.
 */
export class AddMemberLateFixCount1795820000000 implements MigrationInterface {
  name = 'AddMemberLateFixCount1795820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "member_locations" ADD "late_fix_count" bigint NOT NULL DEFAULT '0'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "member_locations" DROP COLUMN "late_fix_count"`);
  }
}
