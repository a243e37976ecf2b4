import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The live stream's sequence and audience (docs/live.md): `outbox_events.seq` (the company's event
 * number, stamped after commit; null until then), `audience_staff` / `audience_members` (who sees the
 * event on the stream), and `outbox_sequences` (each company's last seq; its row is the stamper's
 * lock). Events already there are numbered per company in id order, audience staff (their assignees
 * were not recorded), and each company's sequence starts after them.
 */
export class AddOutboxSequence1795900000000 implements MigrationInterface {
  name = 'AddOutboxSequence1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "outbox_events" ADD "seq" bigint`);
    await q.query(`ALTER TABLE "outbox_events" ADD "audience_staff" boolean NOT NULL DEFAULT true`);
    await q.query(`ALTER TABLE "outbox_events" ADD "audience_members" character varying(26) array NOT NULL DEFAULT '{}'`);
    await q.query(
      `CREATE TABLE "outbox_sequences" ("company_id" character varying(26) NOT NULL, "last_seq" bigint NOT NULL DEFAULT '0', "stamped_at" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_868dbb1a6e35105a2c270095c41" PRIMARY KEY ("company_id"))`,
    );
    await q.query(
      `UPDATE outbox_events o SET seq = n.seq
         FROM (SELECT id, row_number() OVER (PARTITION BY company_id ORDER BY id) AS seq FROM outbox_events) n
        WHERE o.id = n.id`,
    );
    await q.query(
      `INSERT INTO outbox_sequences (company_id, last_seq, stamped_at)
       SELECT company_id, max(seq), (floor(extract(epoch from now()) * 1000))::bigint FROM outbox_events GROUP BY company_id`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_outbox_events_company_seq" ON "outbox_events" ("company_id", "seq") `);
    await q.query(`CREATE INDEX "IDX_outbox_events_unstamped" ON "outbox_events" ("company_id") WHERE "seq" IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_outbox_events_unstamped"`);
    await q.query(`DROP INDEX "public"."UQ_outbox_events_company_seq"`);
    await q.query(`DROP TABLE "outbox_sequences"`);
    await q.query(`ALTER TABLE "outbox_events" DROP COLUMN "audience_members"`);
    await q.query(`ALTER TABLE "outbox_events" DROP COLUMN "audience_staff"`);
    await q.query(`ALTER TABLE "outbox_events" DROP COLUMN "seq"`);
  }
}
