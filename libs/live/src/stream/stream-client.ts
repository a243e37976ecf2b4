import { eventData, sseComment, sseEvent, sseRetry } from './sse-frames';
import { maySeeEvent, maySeePosition, StoredAudience, StreamViewer } from './stream-audience';

/**
 * Where a stream writes — Node's `ServerResponse` is one: `write` answers false when the socket's
 * buffer is full ('drain' follows once it empties); `destroy` drops the connection at once.
 */
export interface SseSink {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
  end(): unknown;
  destroy(): unknown;
}

/** A stamped outbox event as the stream reads it (`ts` ms, database clock; `payload` JSON text). */
export interface StoredEvent extends StoredAudience {
  id: string;
  seq: number;
  action: string;
  ts: number;
  payload: string;
}

/**
 * Each stamped event's frame, built once and shared by every client it goes to (a room hands the
 * same event objects to all its clients; 1,000 clients would otherwise build 1,000 equal strings).
 */
const FRAMES = new WeakMap<StoredEvent, string>();

/** The `event:`/`id:`/`data:` frame of a stamped event. */
export function frameOf(e: StoredEvent): string {
  let frame = FRAMES.get(e);
  if (frame === undefined) {
    frame = sseEvent(e.action, eventData(e), e.seq);
    FRAMES.set(e, frame);
  }
  return frame;
}

/** When a client that does not drain is dropped (CONTRACTS.md "Wave 3: live stream", "Flow"). */
export interface BacklogLimits {
  /** live events waiting behind the socket (default 1,000) */
  maxEvents: number;
  /** bytes of those events (default 1 MB) */
  maxBytes: number;
}

/** Why a stream ended: the client left, it lagged past the limits, or the server is stopping. */
export type StreamEnd = 'closed' | 'lag' | 'shutdown';

/**
 * One open stream: what its viewer may see and asked for, what it has been sent (`lastSeq`), and its
 * flow control. Stamped events count as backlog while the socket does not drain; position events
 * and the snapshot never do (a position waiting is replaced by a newer one of the same member).
 *
 * Modes: `replay` while the hub reads the events after `lastSeq` from the database for it (live
 * events are ignored then: the database holds them), `live` once it has caught up — from then on
 * the hub hands it every event in seq order and it skips those at or below `lastSeq`, so the switch
 * neither loses nor repeats one (docs/live.md, "Resume").
 */
export class StreamClient {
  mode: 'replay' | 'live' = 'replay';
  /** the last seq this client has passed: sent, or skipped as not its own or filtered out */
  lastSeq: number;
  /** frames written (events, positions, snapshot), for the metrics */
  sent = 0;
  private ended?: StreamEnd;
  private full = false;
  private readonly backlog: string[] = [];
  private backlogBytes = 0;
  private readonly positions = new Map<string, string>();
  private drainWaiters: Array<() => void> = [];

  /**
   * @param filter the actions asked for (`?events=`), null = all
   * @param onEnd called once when the stream ends, with why
   */
  constructor(
    private readonly sink: SseSink,
    readonly viewer: StreamViewer,
    private readonly filter: ReadonlySet<string> | null,
    private readonly limits: BacklogLimits,
    lastSeq: number,
    private readonly onEnd: (why: StreamEnd) => void,
  ) {
    this.lastSeq = lastSeq;
  }

  get open(): boolean {
    return this.ended === undefined;
  }

  /** Live events waiting behind the socket. */
  get waiting(): number {
    return this.backlog.length;
  }

  /** Whether this client is sent `action` (its `?events=` filter). */
  wants(action: string): boolean {
    return this.filter === null || this.filter.has(action);
  }

  /** Writes a protocol frame (`retry:`, comment, snapshot, reset): never counted as backlog. */
  control(frame: string): void {
    if (!this.open) return;
    this.write(frame);
  }

  /** Heartbeat: a comment line. */
  heartbeat(): void {
    this.control(sseComment());
  }

  /**
   * Live events in seq order (the hub's): those after `lastSeq` the viewer may see and asked for are
   * sent; ignored while replaying. Past the backlog limits the client is dropped (`lag`).
   * @returns how many frames were written or queued
   */
  offerLive(events: readonly StoredEvent[]): number {
    if (this.mode !== 'live' || !this.open) return 0;
    let n = 0;
    for (const e of events) {
      if (e.seq <= this.lastSeq) continue;
      this.lastSeq = e.seq;
      if (!this.wants(e.action) || !maySeeEvent(this.viewer, e)) continue;
      const frame = frameOf(e);
      n++;
      if (!this.full) {
        this.write(frame);
        continue;
      }
      this.backlog.push(frame);
      this.backlogBytes += Buffer.byteLength(frame);
      if (this.backlog.length > this.limits.maxEvents || this.backlogBytes > this.limits.maxBytes) {
        this.end('lag');
        return n;
      }
    }
    return n;
  }

  /**
   * One replayed event (the hub's database read): sent when the viewer may see it and asked for it;
   * resolves when the socket can take more (replay is paced by the socket's drain).
   */
  async replay(e: StoredEvent): Promise<void> {
    if (!this.open || e.seq <= this.lastSeq) return;
    this.lastSeq = e.seq;
    if (!this.wants(e.action) || !maySeeEvent(this.viewer, e)) return;
    this.write(frameOf(e));
    if (this.full) await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  /**
   * A member's position (its `position` frame, built once by the room): sent when the viewer may see
   * it and asked for positions; while the socket is full it waits, replaced by a newer one of the
   * same member.
   */
  position(memberId: string, frame: string): void {
    if (!this.open || !this.wants('position') || !maySeePosition(this.viewer, memberId)) return;
    if (this.full) this.positions.set(memberId, frame);
    else this.write(frame);
  }

  /**
   * Ends the stream: `shutdown` writes a `retry:` of `retryMs` first (the client reconnects, to
   * another instance, after it); `lag` drops the connection at once (its buffer would never drain).
   */
  end(why: StreamEnd, retryMs?: number): void {
    if (!this.open) return;
    this.ended = why;
    if (why === 'shutdown' && retryMs !== undefined) this.sink.write(sseRetry(retryMs));
    if (why === 'lag') this.sink.destroy();
    else this.sink.end();
    this.backlog.length = 0;
    this.positions.clear();
    for (const wake of this.drainWaiters.splice(0)) wake();
    this.onEnd(why);
  }

  private write(frame: string): void {
    this.sent++;
    if (this.sink.write(frame) || this.full) return;
    this.full = true;
    this.sink.once('drain', () => this.drained());
  }

  /** The socket took what it had: positions waiting, then the backlog in order, until it is full again. */
  private drained(): void {
    this.full = false;
    if (!this.open) return;
    const positions = [...this.positions.values()];
    this.positions.clear();
    for (const frame of positions) this.write(frame);
    while (!this.full && this.backlog.length) {
      const frame = this.backlog.shift()!;
      this.backlogBytes -= Buffer.byteLength(frame);
      this.write(frame);
    }
    if (!this.full) for (const wake of this.drainWaiters.splice(0)) wake();
  }
}
