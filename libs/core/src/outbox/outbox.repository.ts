import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { query } from '../database/query';
import { jsonListUtf8 } from '../json/json-utf8';
import { SQL_NOW_MS } from '../time';
import { StampParticipant } from './stamp-participants';
import { audienceMembers, OutboxAction, OutboxEventInput } from './outbox-events';
import { POLLED_ACTIONS } from './outbox-event.entity';

/** The NOTIFY channel outbox writes signal at commit (payload: the company id); the live stream's stamper listens. */
export const OUTBOX_CHANNEL = 'fieldwork_outbox';

/** The NOTIFY channel a stamping signals on at its commit (payload: `<company id>:<last seq>`); every api instance's stream hub listens. */
export const STREAM_CHANNEL = 'fieldwork_stream';

/** SQL: the database's clock when evaluated (`clock_timestamp()`, not the transaction's start), ms. */
const SQL_CLOCK_MS = `(floor(extract(epoch from clock_timestamp()) * 1000))::bigint`;

/** What one stamping did: how many events it numbered and the company's last seq after it. */
export interface StampResult {
  /** events numbered */
  stamped: number;
  lastSeq: number;
  /** ms: the stamp this stamping gave its events (`stamped_at`); participants' rows got this or more */
  stampedAt: number;
  /** participants' rows stamped */
  rows: number;
  /**
   * true when the stamping was asked not to wait ({@link StampOptions.wait} false) and another
   * stamping of the company held its lock: nothing was done (the other counts, see
   * {@link OutboxRepository.stamp}); `stamped`, `rows` 0, `lastSeq` and `stampedAt` -1.
   */
  busy: boolean;
}

/** How a stamping meets another stamping of the same company ({@link OutboxRepository.stamp}). */
export interface StampOptions {
  /**
   * true (default): wait until the other commits, then stamp (a read that needs its own writes
   * stamped). false: do nothing and answer `busy` (a wake-up after a commit, which the other stamping,
   * or one after it, covers).
   */
  wait?: boolean;
}

/**
 * SQL, `$1` the company: the advisory lock key of the company's stamping (`pg_advisory_xact_lock`
 * space; `hashtextextended` as the route numbers' lock, with its own prefix).
 */
const STAMP_LOCK_KEY = `hashtextextended('outbox.stamp:' || $1, 0)`;

/** A polling trigger's read of stamped events ({@link OutboxRepository.stampedEventsPage}). */
export interface StampedEventsQuery {
  companyId: string;
  /** the actions read: some of {@link POLLED_ACTIONS} */
  actions: readonly OutboxAction[];
  /** ms, inclusive, on the events' stamp; absent: from the first */
  since?: number;
  /** 0–100 */
  limit: number;
  /** a worker: only events naming it; absent: staff (every event for staff) */
  memberId?: string;
}

/**
 * One stamped event as polling reads it: its id (`msg_…`), action, `data` (the payload, parsed) and
 * `createdAt` — its commit-ordered stamp (ms, database clock).
 */
export interface StampedEvent {
  id: string;
  action: OutboxAction;
  data: unknown;
  createdAt: number;
}

/** A page of stamped events, and whether the company had events not yet stamped. */
export interface StampedEventsPage {
  pending: boolean;
  events: StampedEvent[];
}

/** A row of {@link stampedEventsPageSql}: `id` null on the one row of a page with no event. */
export interface StampedEventRow {
  pending: boolean;
  id: string | null;
  action: string;
  payload: string;
  createdAt: number;
}

/**
 * The statement of {@link OutboxRepository.stampedEventsPage} (exported for the benchmark's baseline):
 * parameters `$1` company, `$2` since (ms), `$3` limit, `$4` the member when `byMember`. Actions are
 * inlined (each checked against {@link POLLED_ACTIONS}), so every branch's predicate matches the
 * partial index's. @throws Error for an action that is not polled
 */
export function stampedEventsPageSql(actions: readonly string[], byMember: boolean): string {
  const audience = byMember ? `$4::varchar = ANY(audience_members)` : 'audience_staff';
  const branches = actions.map((action) => {
    if (!POLLED_ACTIONS.includes(action)) throw new Error(`${action} is not a polled action`);
    return `(SELECT id, action, payload, stamped_at FROM outbox_events
               WHERE company_id = $1 AND action = '${action}' AND stamped_at >= $2 AND ${audience}
               ORDER BY stamped_at DESC, id DESC LIMIT $3)`;
  });
  return `SELECT f.pending, e.id, e.action, e.payload, e.stamped_at::float8 AS "createdAt"
    FROM (SELECT EXISTS (SELECT 1 FROM outbox_events WHERE company_id = $1 AND seq IS NULL) AS pending) f
    LEFT JOIN LATERAL (
      SELECT * FROM (${branches.join(' UNION ALL ')}) u ORDER BY stamped_at DESC, id DESC LIMIT $3) e ON true`;
}

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
   * (`JSON.stringify(e.data)` byte for byte, or the event's `dataUtf8` when it has it), instead of as
   * strings escaped a second time. That array is sent as UTF-8 bytes (a binary `json` parameter,
   * which PostgreSQL's `json_recv` reads as the text itself): events that carry their payload's
   * bytes are copied, not encoded again ({@link jsonListUtf8}). Each
   * event's audience (staff flag, member ids) is written with it. `created_at` is the database's
   * clock; `seq` stays null until the stamper numbers the events after commit. The same statement
   * `pg_notify`s {@link OUTBOX_CHANNEL} once per company written (payload: the company id), which
   * PostgreSQL delivers at commit — and never for a transaction that rolls back.
   */
  async insertMany(manager: EntityManager, ids: readonly string[], events: readonly OutboxEventInput[]): Promise<void> {
    await query(
      manager,
      `WITH ins AS (
         INSERT INTO outbox_events (id, company_id, event_key, action, form_id, payload, created_at, audience_staff, audience_members)
         SELECT u.id, u.company_id, u.event_key, u.action, u.form_id, p.payload::text, ${SQL_NOW_MS}, u.staff,
                ARRAY(SELECT json_array_elements_text(a.members))::varchar[]
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $7::boolean[]) WITH ORDINALITY AS u(id, company_id, event_key, action, form_id, staff, n)
           JOIN json_array_elements($6::json) WITH ORDINALITY AS p(payload, n) ON p.n = u.n
           JOIN json_array_elements($8::json) WITH ORDINALITY AS a(members, n) ON a.n = u.n
         RETURNING company_id)
       SELECT pg_notify('${OUTBOX_CHANNEL}', c) FROM (SELECT DISTINCT company_id AS c FROM ins) d`,
      [
        [...ids],
        events.map((e) => e.companyId),
        events.map((e) => e.eventKey),
        events.map((e) => e.action),
        events.map((e) => e.formId),
        jsonListUtf8(
          '[',
          events.map((e) => e.dataUtf8 ?? Buffer.from(JSON.stringify(e.data))),
          ']',
        ),
        events.map((e) => e.audience?.staff ?? true),
        JSON.stringify(events.map((e) => audienceMembers(e.audience))),
      ],
    );
  }

  /**
   * Stamps the company's committed events that have no `seq` yet with its next numbers, and the
   * `participants`' committed unstamped rows, in one transaction (docs/live.md, "Stamping";
   * docs/connector.md, "Polling triggers"):
   * 1. creates or locks the company's `outbox_sequences` row — a second stamper of the company waits
   *    here until the first commits, so stampings of a company are serial — and, once the lock is
   *    held, moves its `stamped_at` to greatest(itself, the database clock now): this stamping's
   *    `stampedAt`, never below a stamp given before, and read after every earlier stamping committed;
   * 2. with a snapshot taken after that lock (READ COMMITTED: one per statement), so it sees every
   *    event committed before — and every seq the previous stamping wrote — numbers ALL of them that
   *    are unstamped `last_seq + 1, + 2, …` in id order (no limit: leaving some for later would let
   *    events committed meanwhile overtake them), sets their `stamped_at`, moves `last_seq`, and
   *    `pg_notify`s {@link STREAM_CHANNEL} `<company>:<last seq>` (delivered at commit) when it
   *    numbered any;
   * 3. each participant stamps its own rows with greatest(`stampedAt`, the clock during its statement)
   *    (so a row's stamp is never below its own writing clock), and the sequence row keeps the highest.
   * An event whose transaction has not committed is invisible to all of them, so it is numbered by a
   * later stamping, after every number already given: seqs (and stamps) are handed out in commit
   * order, and a reader never sees seq n+1 committed before seq n.
   *
   * Step 1 first takes the company's stamping lock (`pg_advisory_xact_lock` on {@link STAMP_LOCK_KEY},
   * the same statement, before the row lock). With `wait: false` it only tries it
   * (`pg_try_advisory_xact_lock`): when another stamping holds it, this one answers `busy` at once,
   * having written nothing — no connection held waiting, as every api process's wake-up after every
   * commit did before (docs/live.md, "One stamper at a time"). The holder, or a stamping after it,
   * numbers what the skipped one would have: see {@link OutboxStamping}.
   * @throws what PostgreSQL throws (the transaction is rolled back: nothing is stamped)
   */
  async stamp(companyId: string, participants: readonly StampParticipant[] = [], options: StampOptions = {}): Promise<StampResult> {
    const wait = options.wait ?? true;
    return this.dataSource.transaction('READ COMMITTED', async (m) => {
      const [locked] = await query<{ lastSeq: number; stampedAt: number }>(
        m,
        `WITH l AS (${wait ? `SELECT true AS got FROM pg_advisory_xact_lock(${STAMP_LOCK_KEY})` : `SELECT pg_try_advisory_xact_lock(${STAMP_LOCK_KEY}) AS got`})
         INSERT INTO outbox_sequences (company_id, last_seq, stamped_at) SELECT $1, 0, ${SQL_CLOCK_MS} WHERE (SELECT got FROM l)
         ON CONFLICT (company_id) DO UPDATE SET stamped_at = greatest(outbox_sequences.stamped_at, ${SQL_CLOCK_MS})
         RETURNING last_seq::float8 AS "lastSeq", stamped_at::float8 AS "stampedAt"`,
        [companyId],
      );
      if (!locked) return { stamped: 0, lastSeq: -1, stampedAt: -1, rows: 0, busy: true };
      const [done] = await query<{ stamped: number; lastSeq: number }>(
        m,
        `WITH todo AS (
           SELECT id, $2::bigint + row_number() OVER (ORDER BY id) AS seq
             FROM outbox_events WHERE company_id = $1 AND seq IS NULL),
         upd AS (UPDATE outbox_events o SET seq = todo.seq, stamped_at = $3 FROM todo WHERE o.company_id = $1 AND o.id = todo.id RETURNING o.seq),
         mx AS (SELECT count(*)::int AS n, max(seq) AS m FROM upd),
         s AS (UPDATE outbox_sequences q SET last_seq = mx.m FROM mx
                WHERE q.company_id = $1 AND mx.n > 0 RETURNING q.last_seq),
         nt AS (SELECT pg_notify('${STREAM_CHANNEL}', $1 || ':' || last_seq) FROM s)
         SELECT (SELECT n FROM mx) AS stamped, coalesce((SELECT last_seq FROM s), $2)::float8 AS "lastSeq", (SELECT count(*) FROM nt)::int AS notified`,
        [companyId, locked.lastSeq, locked.stampedAt],
      );
      let rows = 0;
      let top = locked.stampedAt;
      for (const p of participants) {
        const r = await p.stamp(m, companyId, locked.stampedAt);
        rows += r.rows;
        top = Math.max(top, r.stampedAt);
      }
      // the company's stamp moves to the highest given (a participant's clock ran on), so none goes back
      if (top > locked.stampedAt)
        await query(m, `UPDATE outbox_sequences SET stamped_at = greatest(stamped_at, $2) WHERE company_id = $1`, [companyId, top]);
      return { stamped: done.stamped, lastSeq: done.lastSeq, stampedAt: locked.stampedAt, rows, busy: false };
    });
  }

  /**
   * A page of the company's stamped events of `actions` (a polling trigger's, docs/connector.md):
   * newest first by `stamped_at` (ms, the commit-ordered stamp), ties by id, `stamped_at ≥ since`,
   * at most `limit`; only those the caller may see — staff: events for staff; a member: events naming
   * it in their audience. One statement: per action an ordered probe of `IDX_outbox_events_polled`
   * (company, action, stamped_at, id), merged; plus whether the company has events not yet stamped
   * (`pending`, the partial index of unstamped events), for {@link OutboxStamping.readFresh}.
   */
  async stampedEventsPage(q: StampedEventsQuery): Promise<StampedEventsPage> {
    const params: unknown[] = [q.companyId, q.since ?? 0, Math.trunc(q.limit)];
    if (q.memberId !== undefined) params.push(q.memberId);
    const rows = await query<StampedEventRow>(this.dataSource, stampedEventsPageSql(q.actions, q.memberId !== undefined), params);
    return {
      pending: rows[0]?.pending ?? false,
      events: rows
        .filter((r) => r.id !== null)
        .map((r) => ({ id: r.id!, action: r.action as OutboxAction, data: JSON.parse(r.payload) as unknown, createdAt: r.createdAt })),
    };
  }

  /** The companies with committed events not yet stamped (the stamper's periodic pass; a partial index serves it). */
  async unstampedCompanies(): Promise<string[]> {
    const rows = await query<{ companyId: string }>(
      this.dataSource,
      `SELECT DISTINCT company_id AS "companyId" FROM outbox_events WHERE seq IS NULL`,
    );
    return rows.map((r) => r.companyId);
  }

  /**
   * Deletes the events among `ids` (the webhooks pruner's: events past retention with no delivery
   * left). @returns how many rows were deleted.
   */
  async deleteByIds(ids: readonly string[]): Promise<number> {
    if (!ids.length) return 0;
    const rows = await query<{ id: string }>(this.dataSource, `DELETE FROM outbox_events WHERE id = ANY($1::text[]) RETURNING id`, [
      [...ids],
    ]);
    return rows.length;
  }
}
