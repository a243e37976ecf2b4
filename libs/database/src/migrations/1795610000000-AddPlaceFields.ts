import { MigrationInterface, QueryRunner } from 'typeorm';

/** The Place resource's remaining fields (contact, color, forms, extended data, teams, creator, soft delete) and the company's `checkin_dwell_seconds`. */
export class AddPlaceFields1795610000000 implements MigrationInterface {
  name = 'AddPlaceFields1795610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "companies" ADD "checkin_dwell_seconds" integer NOT NULL DEFAULT '60'`);
    await q.query(`ALTER TABLE "places" ADD "phone" character varying(40) NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE "places" ADD "email" character varying(254) NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE "places" ADD "color" character varying(7) NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE "places" ADD "linked_forms" character varying(1000) NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE "places" ADD "data" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`ALTER TABLE "places" ADD "teams" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`ALTER TABLE "places" ADD "creator_id" character varying(26)`);
    await q.query(`ALTER TABLE "places" ADD "updated_at" bigint`);
    await q.query(`ALTER TABLE "places" ADD "deleted_at" bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "places" DROP COLUMN "deleted_at"`);
    await q.query(`ALTER TABLE "places" DROP COLUMN "updated_at"`);
    await q.query(`ALTER TABLE "places" DROP COLUMN "creator_id"`);
    await q.query(`ALTER TABLE "places" DROP COLUMN "teams"`);
    await q.query(`ALTER TABLE "places" DROP COLUMN "data"`);
    await q.query(`ALTER TABLE "places" DROP COLUMN "linked_forms"`);
    await q.query(`ALTER TABLE "places" DROP COLUMN "color"`);
    await q.query(`ALTER TABLE "places" DROP COLUMN "email"`);
    await q.query(`ALTER TABLE "places" DROP COLUMN "phone"`);
    await q.query(`ALTER TABLE "companies" DROP COLUMN "checkin_dwell_seconds"`);
  }
}
