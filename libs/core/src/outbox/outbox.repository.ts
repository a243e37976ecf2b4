import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { query } from '../database/query';
import { SQL_NOW_MS } from '../time';
import { OutboxEventInput } from './outbox-events';

/**
 * Every SQL statement on `outbox_events` (core's table; the rows a delivery reads are read by the
 * webhooks lib's read model). Times are ms, database clock.
 */
@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts `events` with their `ids` (same order) in the caller's transaction, in one statement:
   * the payloads travel as one json array whose elements `json_array_elements` hands back verbatim
   * (`JSON.stringify(e.data)` byte for byte), instead of as strings escaped a second time.
   * `created_at` is the database's clock.
   */
  async insertMany(manager: EntityManager, ids: readonly string[], events: readonly OutboxEventInput[]): Promise<void> {
    await query(
      manager,
      `INSERT INTO outbox_events (id, company_id, event_key, action, form_id, payload, created_at)
       SELECT u.id, u.company_id, u.event_key, u.action, u.form_id, p.payload::text, ${SQL_NOW_MS}
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS u(id, company_id, event_key, action, form_id, n)
         JOIN json_array_elements($6::json) WITH ORDINALITY AS p(payload, n) ON p.n = u.n`,
      [
        [...ids],
        events.map((e) => e.companyId),
        events.map((e) => e.eventKey),
        events.map((e) => e.action),
        events.map((e) => e.formId),
        `[${events.map((e) => JSON.stringify(e.data)).join(',')}]`,
      ],
    );
  }

  /**
   * Deletes the events among `ids` (the webhooks pruner's: events past retention with no delivery
   * left). @returns how many rows were deleted.
   */
  async deleteByIds(ids: readonly string[]): Promise<number> {
    if (!ids.length) return 0;
    const rows = await query<{ id: string }>(this.dataSource, `DELETE FROM outbox_events WHERE id = ANY($1::text[]) RETURNING id`, [[...ids]]);
    return rows.length;
  }
}
