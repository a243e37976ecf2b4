import { createParser, EventSourceMessage } from 'eventsource-parser';
import { request } from 'undici';

/** One SSE event as a WHATWG parser reads it, with `data` parsed when it is JSON. */
export interface SseEvent {
  event: string;
  id?: string;
  data: any;
  /** ms (this process's clock) it arrived */
  at: number;
}

/**
 * A raw SSE reader over real HTTP (undici), parsing with `eventsource-parser` — the parser the
 * `eventsource` package uses — and keeping every event, `retry:` and comment, so a test sees the wire
 * as sent (the `eventsource` client hides `retry:` and reconnects by itself; tests that want that use it).
 */
export class SseStream {
  readonly events: SseEvent[] = [];
  readonly retries: number[] = [];
  comments = 0;
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  /** the body text when the answer was not a stream (an error) */
  errorBody?: any;
  readonly ended: Promise<void>;
  private readonly abort = new AbortController();
  private endedResolve!: () => void;
  private waiters: Array<() => void> = [];
  /** set to hold back reading the socket (a slow client): the server's writes then fill the buffers */
  private paused?: Promise<void>;
  private resumeReading?: () => void;

  private constructor() {
    this.ended = new Promise((r) => (this.endedResolve = r));
  }

  /** Opens `url` with `headers`; resolves once the status and headers are in. */
  static async open(url: string, headers: Record<string, string> = {}, opts: { paused?: boolean } = {}): Promise<SseStream> {
    const s = new SseStream();
    if (opts.paused) s.pause();
    const res = await request(url, { headers: { accept: 'text/event-stream', ...headers }, signal: s.abort.signal });
    s.status = res.statusCode;
    s.headers = res.headers;
    if (res.statusCode !== 200) {
      const text = await res.body.text();
      try {
        s.errorBody = JSON.parse(text);
      } catch {
        s.errorBody = text;
      }
      s.endedResolve();
      return s;
    }
    const parser = createParser({
      onEvent: (e: EventSourceMessage) => s.push(e),
      onRetry: (ms) => s.retries.push(ms),
      onComment: () => s.comments++,
    });
    void (async () => {
      try {
        for await (const chunk of res.body) {
          if (s.paused) await s.paused;
          parser.feed(Buffer.from(chunk as Uint8Array).toString('utf8'));
        }
      } catch {
        // aborted or reset: ended below
      }
      s.endedResolve();
      s.wake();
    })();
    return s;
  }

  /** Stops reading the socket until {@link resume}. */
  pause(): void {
    this.paused ??= new Promise((r) => (this.resumeReading = r));
  }

  resume(): void {
    const r = this.resumeReading;
    this.paused = undefined;
    this.resumeReading = undefined;
    r?.();
  }

  /** Events of `event` (all when omitted). */
  of(event?: string): SseEvent[] {
    return event === undefined ? this.events : this.events.filter((e) => e.event === event);
  }

  /** The last `id:` received (what an EventSource would send as `Last-Event-ID`). */
  get lastEventId(): string | undefined {
    for (let i = this.events.length - 1; i >= 0; i--) if (this.events[i].id !== undefined) return this.events[i].id;
    return undefined;
  }

  /** Waits until `pred(events)` holds (checked on each event), or throws after `timeoutMs` naming `what`. */
  async waitFor(what: string, pred: (events: SseEvent[]) => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.events)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${this.events.map((e) => `${e.event}#${e.id ?? ''}`).join(' ')}`);
      let done = false;
      await Promise.race([
        this.ended.then(() => (done = true)),
        new Promise<void>((r) => this.waiters.push(r)),
        new Promise((r) => setTimeout(r, Math.min(left, 250))),
      ]);
      if (done && !pred(this.events))
        throw new Error(`stream ended before ${what}; got ${this.events.map((e) => `${e.event}#${e.id ?? ''}`).join(' ')}`);
    }
  }

  close(): void {
    this.abort.abort();
  }

  private push(e: EventSourceMessage): void {
    let data: unknown = e.data;
    try {
      data = JSON.parse(e.data);
    } catch {
      // not JSON: kept as text
    }
    this.events.push({ event: e.event ?? 'message', id: e.id, data, at: Date.now() });
    this.wake();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
