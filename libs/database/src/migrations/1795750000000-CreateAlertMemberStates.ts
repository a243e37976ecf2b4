import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The alerts fix consumer's per-member state (docs/alerts-evaluation.md): zone visits, battery
 * arming and the current still period, locked per member like `geofence_states`.
 */
export class CreateAlertMemberStates1795750000000 implements MigrationInterface {
  name = 'CreateAlertMemberStates1795750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "alert_member_states" ("company_id" character varying(26) NOT NULL, "member_id" character varying(26) NOT NULL, "evaluated_ts" bigint NOT NULL DEFAULT '0', "state" jsonb NOT NULL DEFAULT '{}', "updated_at" bigint NOT NULL, CONSTRAINT "PK_11dd7635edaeced4f91fa5884c3" PRIMARY KEY ("company_id", "member_id"))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "alert_member_states"`);
  }
}
