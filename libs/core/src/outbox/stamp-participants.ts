import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * A table stamped with the outbox's events (docs/connector.md, "Polling triggers"): writers leave its
 * rows' stamp null, and each stamping of a company — one at a time per company, under the company's
 * `outbox_sequences` row lock — gives every committed unstamped row of that company a stamp (ms,
 * database clock, never smaller than any stamp given to the company before). So its stamps follow
 * commit order exactly as the events' seqs do, and polling by them never misses a row nor waits for
 * another transaction. The jobs lib stamps `jobs` this way (`/v1/jobs` `*Since`).
 */
export interface StampParticipant {
  /** a short name for logs (`jobs`) */
  readonly name: string;
  /**
   * Stamps the company's committed unstamped rows in the stamping's transaction `db` (READ COMMITTED;
   * its snapshot is taken after the company's lock), all with one stamp: greatest(`floor`, the
   * database clock read during the statement) — so never below the stamping's stamp, and never below
   * the clock of a row it stamps (that row committed before the statement's snapshot). Must never
   * wait on a row lock (skip locked rows: their writer's commit wakes a later stamping).
   * @returns how many rows it stamped, and the stamp it gave (ms; `floor` when none)
   */
  stamp(db: EntityManager, companyId: string, floor: number): Promise<{ rows: number; stampedAt: number }>;
  /** The companies with committed unstamped rows (the stamper's periodic pass). */
  unstampedCompanies(): Promise<string[]>;
}

/**
 * Where stamped tables register (their module's `onModuleInit`), so core's stamping covers them
 * without core knowing their tables (no import from core to a domain lib).
 */
@Injectable()
export class StampParticipants {
  private readonly entries: StampParticipant[] = [];

  /** @throws Error when a participant of the same name is registered already */
  register(participant: StampParticipant): void {
    if (this.entries.some((e) => e.name === participant.name)) throw new Error(`stamp participant ${participant.name} registered twice`);
    this.entries.push(participant);
  }

  /** The registered participants, in registration order. */
  all(): readonly StampParticipant[] {
    return this.entries;
  }
}
