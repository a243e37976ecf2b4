import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The company's `location` (editcompany/getcompany `{lat, lng}` or null; CONTRACTS.md "Dispatch"):
 * where `optimizeroute {startEndAtCompany: true}` starts and ends. Two nullable degree columns, set
 * and cleared together.
 */
export class AddCompanyLocation1795700000000 implements MigrationInterface {
  name = 'AddCompanyLocation1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "companies" ADD "location_lat" double precision`);
    await q.query(`ALTER TABLE "companies" ADD "location_lng" double precision`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "companies" DROP COLUMN "location_lng"`);
    await q.query(`ALTER TABLE "companies" DROP COLUMN "location_lat"`);
  }
}
