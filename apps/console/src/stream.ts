import { EventStreamContentType, fetchEventSource } from '@microsoft/fetch-event-source';

/** The stream's state, mirrored on `body[data-stream]`: `open` while connected. */
export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Thrown from the callbacks to stop retrying (a refused key). */
class Fatal extends Error {}

export interface StreamHandlers {
  /** one SSE event: its `event:` name and parsed `data` */
  onEvent(event: string, data: unknown): void;
  onState(state: StreamState, detail?: string): void;
  /** the key was refused (401/403): retrying would not help */
  onRefused(message: string): void;
}

/**
 * The live stream (`GET /v1/stream`, docs/live.md) through `@microsoft/fetch-event-source`, a fetch-based
 * SSE client: the key goes in the `API-Key` header (an EventSource can't send one). It reconnects by
 * itself — after an error, and after the server ends the stream (a restart or a deploy ends streams
 * with a `retry:`) — sending the last seq seen as `Last-Event-ID`, so the server replays what was
 * missed, in order, with no gap.
 * @returns stop(): closes the stream for good
 */
export function openStream(key: string, handlers: StreamHandlers): () => void {
  const abort = new AbortController();
  let opened = false;
  handlers.onState('connecting');
  void fetchEventSource('/v1/stream', {
    headers: { 'API-Key': key },
    signal: abort.signal,
    openWhenHidden: true,
    async onopen(res) {
      if (res.ok && res.headers.get('content-type')?.startsWith(EventStreamContentType)) {
        opened = true;
        handlers.onState('open');
        return;
      }
      const text = await res.text().catch(() => '');
      if (res.status === 401 || res.status === 403) throw new Fatal(messageOf(text) ?? `the stream answered ${res.status}`);
      throw new Error(`the stream answered ${res.status}`);
    },
    onmessage(msg) {
      if (!msg.event && !msg.data) return;
      let data: unknown = null;
      try {
        data = msg.data ? JSON.parse(msg.data) : null;
      } catch {
        return;
      }
      handlers.onEvent(msg.event || 'message', data);
    },
    onclose() {
      // the server ended the stream (shutdown, or a slow client dropped): reconnect with Last-Event-ID
      throw new Error('the stream ended');
    },
    onerror(err) {
      if (err instanceof Fatal) {
        handlers.onState('closed', err.message);
        handlers.onRefused(err.message);
        throw err;
      }
      handlers.onState(opened ? 'reconnecting' : 'connecting', err instanceof Error ? err.message : String(err));
      // undefined: the library waits the server's `retry:` (or 1 s) and tries again
      return undefined;
    },
  }).catch(() => undefined);
  return () => {
    abort.abort();
    handlers.onState('closed');
  };
}

function messageOf(text: string): string | undefined {
  try {
    return JSON.parse(text)?.error?.message;
  } catch {
    return undefined;
  }
}
