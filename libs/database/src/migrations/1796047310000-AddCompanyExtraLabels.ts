import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `companies.extra_labels`: the labels of the worker-input fields (`{"extra_number_1_key": "Meter
 * reading", …}`, only those set), which editcompany sets and every job answer shows as its read-only
 * `extra_<kind>_<x>_key` (issue #28 item 4). Every existing company starts with none (`{}`).
 */
export class AddCompanyExtraLabels1796047310000 implements MigrationInterface {
  name = 'AddCompanyExtraLabels1796047310000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "companies" ADD "extra_labels" jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "companies" DROP COLUMN "extra_labels"`);
  }
}
