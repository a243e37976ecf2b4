import { outboxEvent, OutboxEventInput, OutboxService } from '@app/core';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { readEventWho } from '../members-who.read';
import { IngestRepository } from './ingest.repository';

/** ms: a known latest fix this close to a clock event's time gives the event its `location`. */
export const CLOCK_LOCATION_MAX_AGE_MS = 10 * 60_000;

const CLOCK_KEYS = { clockin: 'clock_in_out', clockout: 'clock_in_out' } as const;

/** One clock event to record: the member, the action, its `ts` (ms), where (degrees; absent = unknown), the receive time (ms). */
export interface ClockEventInput {
  companyId: string;
  memberId: string;
  action: 'clockin' | 'clockout';
  ts: number;
  location?: { lat: number; lng: number };
  now: number;
}

/**
 * Clock events (CONTRACTS.md "Places, check-ins, clock"): a change of a phone's reported tracking
 * state, recorded in the ingest transaction that saw it as a `clock_events` row and a
 * `clockin`/`clockout` outbox event (skipped both when the member already has one at that `ts`).
 */
@Injectable()
export class ClockEventsService {
  constructor(
    private readonly repo: IngestRepository,
    private readonly outbox: OutboxService,
  ) {}

  /**
   * The `clock_events` row and the `clockin`/`clockout` outbox event, in the caller's transaction.
   * @returns the ids of the outbox events appended (to wake after the commit)
   */
  async record(db: EntityManager, e: ClockEventInput): Promise<string[]> {
    const { companyId, memberId, action, ts, location } = e;
    const member = await readEventWho(db, companyId, memberId);
    const inserted = await this.repo.insertClockEvent(db, {
      companyId,
      memberId,
      ts,
      tracking: action === 'clockin',
      location,
      receivedAt: e.now,
    });
    if (!inserted) return [];
    const who = { uid: memberId, name: member?.name ?? '', username: member?.username ?? '' };
    const data = { who, tracking: action === 'clockin', ts, ...(location ? { location } : {}) };
    const event: OutboxEventInput =
      action === 'clockin'
        ? outboxEvent(CLOCK_KEYS, 'clockin', { companyId, formId: `${memberId}-${ts}-clockin`, data, audience: { members: [memberId] } })
        : outboxEvent(CLOCK_KEYS, 'clockout', { companyId, formId: `${memberId}-${ts}-clockout`, data, audience: { members: [memberId] } });
    return this.outbox.appendMany(db, [event]);
  }
}
