import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Phone columns widened from 40 to 64 characters (CONTRACTS.md "Wave 3: connector for automation
 * platforms", field rules): a phone field takes any text of at most 64 characters without control
 * characters (docs/domain-rules.md "Field rules"). Widening a varchar rewrites no rows. `down` fails
 * while a stored phone is longer than 40 characters (it would have to cut people's data).
 */
export class WidenPhoneColumns1795930000000 implements MigrationInterface {
  name = 'WidenPhoneColumns1795930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "members" ALTER COLUMN "phone" TYPE character varying(64)`);
    await q.query(`ALTER TABLE "companies" ALTER COLUMN "phone" TYPE character varying(64)`);
    await q.query(`ALTER TABLE "places" ALTER COLUMN "phone" TYPE character varying(64)`);
    await q.query(`ALTER TABLE "jobs" ALTER COLUMN "contact_phone" TYPE character varying(64)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "jobs" ALTER COLUMN "contact_phone" TYPE character varying(40)`);
    await q.query(`ALTER TABLE "places" ALTER COLUMN "phone" TYPE character varying(40)`);
    await q.query(`ALTER TABLE "companies" ALTER COLUMN "phone" TYPE character varying(40)`);
    await q.query(`ALTER TABLE "members" ALTER COLUMN "phone" TYPE character varying(40)`);
  }
}
