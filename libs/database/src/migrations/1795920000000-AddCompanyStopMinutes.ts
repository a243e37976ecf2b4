import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `companies.stop_minutes`: the company's stop threshold (minutes a member stays within 100 m for a
 * stop), the one threshold of the track builder and the stops reports (CONTRACTS.md "Wave 3: reports
 * and the demo"). NULL (every existing company) = the server's `TRACK_STOP_MINUTES`; editcompany sets
 * 1–240 or clears it with null (docs/tracks.md "The split rule").
 */
export class AddCompanyStopMinutes1795920000000 implements MigrationInterface {
  name = 'AddCompanyStopMinutes1795920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "companies" ADD "stop_minutes" integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "companies" DROP COLUMN "stop_minutes"`);
  }
}
