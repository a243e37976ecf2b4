import { AppConfig, STREAM_CHANNEL } from '@app/core';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { LiveListener } from '../live-listener.service';
import { PositionsRead } from '../positions/locations-positions.read';
import { CompanyRoom, RoomObserver } from './company-room';
import { OutboxStreamRead } from './core-outbox-stream.read';
import { sseEvent, sseRetry } from './sse-frames';
import { maySeePosition, StreamViewer } from './stream-audience';
import { SseSink, StreamClient, StreamEnd } from './stream-client';

/** `retry:` sent first on every stream (ms): how long an EventSource waits before reconnecting. */
export const STREAM_RETRY_MS = 3000;
/** On shutdown, streams end with a `retry:` of 0 to this many ms (random), so clients don't all reconnect at once. */
export const SHUTDOWN_RETRY_SPREAD_MS = 5000;

/** A stream to open: who, what it asked for (`?events=`), where it resumes (`Last-Event-ID`), where it writes. */
export interface StreamRequest {
  viewer: StreamViewer;
  filter: ReadonlySet<string> | null;
  /** the seq a reconnecting client last received; undefined on a fresh connection */
  lastEventId?: number;
  sink: SseSink;
}

/** This process's stream figures for `/metrics`. */
export interface StreamStats {
  /** frames written to clients (events, positions, snapshots) */
  sent: number;
  /** clients dropped because their socket did not drain */
  droppedForLag: number;
}

/**
 * The live stream of every company with streams open on this api process (docs/live.md): one
 * {@link CompanyRoom} per company, woken by the stamper's `NOTIFY` on every instance (so an event
 * committed through any instance, or the worker, reaches every client), and every
 * `STREAM_SAFETY_MS` anyway. Writes the protocol's frames: `retry:` first, the snapshot or the
 * replay after `Last-Event-ID`, heartbeats, and on shutdown a `retry:` spread over
 * {@link SHUTDOWN_RETRY_SPREAD_MS}.
 */
@Injectable()
export class StreamHub implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('StreamHub');
  private readonly rooms = new Map<string, CompanyRoom>();
  private readonly starting = new Map<string, Promise<CompanyRoom>>();
  private heartbeat?: NodeJS.Timeout;
  private safety?: NodeJS.Timeout;
  private closing = false;
  readonly stats: StreamStats = { sent: 0, droppedForLag: 0 };
  /** called with each event's delay (ms) from its creation to its first hand-over to the clients */
  onDelay?: (ms: number) => void;

  constructor(
    private readonly events: OutboxStreamRead,
    private readonly positions: PositionsRead,
    private readonly listener: LiveListener,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.listener.subscribe(STREAM_CHANNEL, {
      notified: (payload) => {
        const companyId = payload.slice(0, payload.lastIndexOf(':'));
        void this.rooms.get(companyId)?.wake();
      },
      connected: () => this.wakeAll(),
    });
    this.heartbeat = setInterval(() => this.forEachClient((c) => c.heartbeat()), this.config.STREAM_HEARTBEAT_MS);
    this.heartbeat.unref();
    this.safety = setInterval(() => this.wakeAll(), this.config.STREAM_SAFETY_MS);
    this.safety.unref();
  }

  /** Streams open on this process. */
  get openStreams(): number {
    let n = 0;
    for (const room of this.rooms.values()) n += room.clients.size;
    return n;
  }

  /** Whether `seq` is one a client of `companyId` may resume after: known and within `STREAM_REPLAY_HOURS`. */
  async canResume(companyId: string, seq: number, lastSeq: number): Promise<boolean> {
    if (!Number.isSafeInteger(seq) || seq < 0 || seq > lastSeq) return false;
    const oldest = Date.now() - this.config.STREAM_REPLAY_HOURS * 3_600_000;
    if (seq === 0) {
      if (lastSeq === 0) return true;
      const first = await this.events.createdAtOfSeq(companyId, 1);
      return first !== null && first >= oldest;
    }
    const at = await this.events.createdAtOfSeq(companyId, seq);
    return at !== null && at >= oldest;
  }

  /**
   * Opens a stream: `retry:` at once; then, resuming, every event after `lastEventId` the viewer may
   * see (or `reset` and a snapshot when it can't resume) followed by the visible members' positions;
   * fresh, a snapshot; then live. @returns the client at once (end it when the connection closes) and
   * `ready`, settled once it is live or ended; a failure to read ends the stream (its client
   * reconnects after the `retry:`) and is logged, never thrown.
   */
  open(req: StreamRequest): { client: StreamClient; ready: Promise<void> } {
    const limits = { maxEvents: this.config.STREAM_MAX_BACKLOG_EVENTS, maxBytes: this.config.STREAM_MAX_BACKLOG_BYTES };
    const { companyId } = req.viewer;
    const client: StreamClient = new StreamClient(req.sink, req.viewer, req.filter, limits, 0, (why) => this.left(companyId, client, why));
    client.control(sseRetry(STREAM_RETRY_MS));
    if (this.closing) {
      client.end('shutdown', Math.random() * SHUTDOWN_RETRY_SPREAD_MS);
      return { client, ready: Promise.resolve() };
    }
    const ready = this.start(client, req).catch((err: Error) => {
      this.logger.warn(`a stream of company ${companyId} could not start: ${err.message}`);
      client.end('closed');
    });
    return { client, ready };
  }

  private async start(client: StreamClient, req: StreamRequest): Promise<void> {
    const { companyId } = req.viewer;
    const room = await this.room(companyId);
    if (!client.open) return this.releaseIfEmpty(room);
    room.clients.add(client);
    const resumed =
      req.lastEventId !== undefined && (await this.canResume(companyId, req.lastEventId, await this.events.lastSeq(companyId)));
    if (resumed) {
      client.lastSeq = req.lastEventId!;
      await room.catchUp(client);
      if (client.open) room.sendPositions(client);
      return;
    }
    if (req.lastEventId !== undefined) client.control(sseEvent('reset', JSON.stringify({ lastEventId: req.lastEventId })));
    await room.refreshPositions();
    const lastSeq = room.lastSeq;
    const members = room.positionsJson((m) => maySeePosition(req.viewer, m));
    client.lastSeq = lastSeq;
    client.control(sseEvent('snapshot', `{"ts":${Date.now()},"lastSeq":${lastSeq},"members":[${members.join(',')}]}`, lastSeq));
    this.stats.sent++;
    await room.catchUp(client);
  }

  /** Ends every stream with a `retry:` spread over {@link SHUTDOWN_RETRY_SPREAD_MS}; new ones end at once (SIGTERM). */
  closeAll(): void {
    this.closing = true;
    this.forEachClient((c) => c.end('shutdown', Math.random() * SHUTDOWN_RETRY_SPREAD_MS));
  }

  private room(companyId: string): Promise<CompanyRoom> {
    const held = this.rooms.get(companyId);
    if (held) return Promise.resolve(held);
    let starting = this.starting.get(companyId);
    if (!starting) {
      const observer: RoomObserver = { sent: (n) => (this.stats.sent += n), delay: (ms) => this.onDelay?.(ms) };
      const room = new CompanyRoom(companyId, this.events, this.positions, this.config.STREAM_POSITION_MS, observer);
      starting = room
        .start()
        .then(() => {
          this.rooms.set(companyId, room);
          return room;
        })
        .finally(() => this.starting.delete(companyId));
      this.starting.set(companyId, starting);
    }
    return starting;
  }

  private left(companyId: string, client: StreamClient, why: StreamEnd): void {
    if (why === 'lag') this.stats.droppedForLag++;
    const room = this.rooms.get(companyId);
    if (!room) return;
    room.clients.delete(client);
    this.releaseIfEmpty(room);
  }

  /** Stops following a company no stream of this process reads any more. */
  private releaseIfEmpty(room: CompanyRoom): void {
    if (room.clients.size || this.rooms.get(room.companyId) !== room) return;
    room.close();
    this.rooms.delete(room.companyId);
  }

  private wakeAll(): void {
    for (const room of this.rooms.values()) void room.wake();
  }

  private forEachClient(fn: (c: StreamClient) => void): void {
    for (const room of [...this.rooms.values()]) for (const c of [...room.clients]) fn(c);
  }

  onModuleDestroy(): void {
    clearInterval(this.heartbeat);
    clearInterval(this.safety);
    this.closeAll();
    for (const room of this.rooms.values()) room.close();
    this.rooms.clear();
  }
}
