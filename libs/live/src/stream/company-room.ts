import { xid32 } from '@app/core';
import { Logger } from '@nestjs/common';
import { PositionRow, toPositionRecord } from '../positions/position-record';
import { PositionsRead } from '../positions/locations-positions.read';
import { OutboxStreamRead } from './core-outbox-stream.read';
import { sseEvent } from './sse-frames';
import { StoredEvent, StreamClient } from './stream-client';

/** Events one read of the outbox takes at most (live reads and replay pages). */
export const READ_PAGE = 500;

/** What a room reports to the hub's metrics: events handed to clients, and each event's delay from creation to its first send. */
export interface RoomObserver {
  sent(frames: number): void;
  delay(ms: number): void;
}

/** A member's newest position as the room holds it: the fix time and state that decide a resend, and the record's JSON. */
interface HeldPosition {
  ts: number;
  tracking: boolean;
  json: string;
  /** its `position` frame */
  frame: string;
  /** ms (this process's clock) the member's last position event went out; 0 = never */
  sentAt: number;
  /** `json` has not been sent yet */
  pending: boolean;
}

/**
 * One company's streams in this api process: ONE reader of the company's stamped events for all of
 * them (woken by the stamper's NOTIFY), handing each batch to every live client in seq order, and
 * ONE reader of its members' positions every `positionMs` while it has clients.
 */
export class CompanyRoom {
  private readonly logger = new Logger('StreamHub');
  readonly clients = new Set<StreamClient>();
  /** the last seq handed to the live clients */
  lastSeq = 0;
  private reading?: Promise<void>;
  private readAgain = false;
  private readonly positions = new Map<string, HeldPosition>();
  /** the last positions read's horizon (xid8 text; undefined before the first): the next read takes the rows changed since */
  private positionsHorizon?: string;
  private positionsReading?: Promise<void>;
  private positionTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly companyId: string,
    private readonly events: OutboxStreamRead,
    private readonly positionsRead: PositionsRead,
    private readonly positionMs: number,
    private readonly observer: RoomObserver,
  ) {}

  /** Reads where the company's sequence stands and its members' positions; then follows both. */
  async start(): Promise<void> {
    this.lastSeq = await this.events.lastSeq(this.companyId);
    await this.refreshPositions();
    this.schedulePositions();
  }

  /**
   * Reads the events stamped after `lastSeq` and hands them to the live clients — once at a time;
   * a wake-up during a read runs one more read after it.
   */
  wake(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = this.readLoop().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async readLoop(): Promise<void> {
    do {
      this.readAgain = false;
      let page: StoredEvent[];
      do {
        try {
          page = await this.events.eventsAfter(this.companyId, this.lastSeq, READ_PAGE);
        } catch (err) {
          this.logger.warn(`reading company ${this.companyId}'s events failed (the safety pass retries): ${(err as Error).message}`);
          return;
        }
        if (this.closed || !page.length) break;
        const now = Date.now();
        for (const e of page) this.observer.delay(now - e.ts);
        this.lastSeq = page[page.length - 1].seq;
        let frames = 0;
        for (const c of this.clients) frames += c.offerLive(page);
        if (frames) this.observer.sent(frames);
      } while (page.length === READ_PAGE);
    } while (this.readAgain && !this.closed);
  }

  /**
   * Brings `client` (in replay mode, `lastSeq` where it resumes) up to the room: pages of the events
   * after its `lastSeq`, each written once the socket drained the one before, until it has passed
   * the room's `lastSeq` — then, in the same turn of the event loop, it goes live.
   */
  async catchUp(client: StreamClient): Promise<void> {
    while (client.open) {
      const page = await this.events.eventsAfter(this.companyId, client.lastSeq, READ_PAGE);
      const before = client.sent;
      for (const e of page) {
        await client.replay(e);
        if (!client.open) return;
      }
      if (client.sent > before) this.observer.sent(client.sent - before);
      if (page.length < READ_PAGE && client.lastSeq >= this.lastSeq) {
        client.mode = 'live';
        return;
      }
    }
  }

  /** Sends `client` every member's position it may see (after a resume; the snapshot carries them on a fresh connection). */
  sendPositions(client: StreamClient): void {
    for (const [memberId, p] of this.positions) client.position(memberId, p.frame);
  }

  /** The position records `include` lets through, newest known (the snapshot's `members`), as JSON texts. */
  positionsJson(include: (memberId: string) => boolean): string[] {
    const out: string[] = [];
    for (const [memberId, p] of this.positions) if (include(memberId)) out.push(p.json);
    return out;
  }

  /**
   * Reads the positions changed since the last read (all on the first; rows of transactions still in
   * progress at the last read are read again, and a row already held is not resent), keeps the newest of each
   * member and hands those whose fix or tracking changed to the live clients. Reads run one at a time;
   * a caller during one waits for it and then one more (so it sees what was written before its call).
   */
  refreshPositions(): Promise<void> {
    const run = async (): Promise<void> => {
      const since = this.positionsHorizon === undefined ? undefined : xid32(this.positionsHorizon);
      const { now, horizon, rows } = await this.positionsRead.changedSince(this.companyId, since);
      this.positionsHorizon = horizon;
      for (const row of rows) this.takePosition(row, now);
      for (const [memberId, p] of this.positions) if (p.pending) this.sendDue(memberId);
    };
    const previous = this.positionsReading;
    const next: Promise<void> = (previous ? previous.catch(() => undefined).then(run) : run()).finally(() => {
      if (this.positionsReading === next) this.positionsReading = undefined;
    });
    this.positionsReading = next;
    return next;
  }

  /** Keeps a member's newest position; sends it now unless one of the member's went out less than `positionMs` ago (then the tick after does). */
  private takePosition(row: PositionRow, now: number): void {
    const held = this.positions.get(row.uid);
    if (held && held.ts >= row.ts && held.tracking === row.trackingStatus) return;
    const json = JSON.stringify(toPositionRecord(row, now));
    this.positions.set(row.uid, {
      ts: row.ts,
      tracking: row.trackingStatus,
      json,
      frame: sseEvent('position', json),
      sentAt: held?.sentAt ?? 0,
      pending: true,
    });
    this.sendDue(row.uid);
  }

  /** Sends the member's held position when it is pending and the member's last one went out at least `positionMs` ago. */
  private sendDue(memberId: string): void {
    const p = this.positions.get(memberId);
    const now = Date.now();
    if (!p?.pending || now - p.sentAt < this.positionMs) return;
    p.pending = false;
    p.sentAt = now;
    let frames = 0;
    for (const c of this.clients) {
      if (c.mode !== 'live') continue;
      const before = c.sent;
      c.position(memberId, p.frame);
      frames += c.sent - before;
    }
    if (frames) this.observer.sent(frames);
  }

  private schedulePositions(): void {
    if (this.closed) return;
    this.positionTimer = setTimeout(() => {
      this.refreshPositions()
        .catch((err: Error) => this.logger.warn(`reading company ${this.companyId}'s positions failed: ${err.message}`))
        .finally(() => this.schedulePositions());
    }, this.positionMs);
    this.positionTimer.unref();
  }

  /** Stops following the company (its last client left, or the process stops). */
  close(): void {
    this.closed = true;
    clearTimeout(this.positionTimer);
  }
}
