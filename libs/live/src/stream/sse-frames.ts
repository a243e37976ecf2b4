/**
 * Server-Sent Events frames as the WHATWG HTML standard defines the `text/event-stream` format
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation): fields
 * `event:`, `id:`, `data:` and `retry:`, a line starting with `:` is a comment, a blank line ends an
 * event. Our `data` is always one line of JSON (JSON text never holds a raw line break), so one
 * `data:` field carries it.
 */

/** An event with an `id:` (the company's seq, decimal text): a client that reconnects sends it back as `Last-Event-ID`. */
export function sseEvent(event: string, data: string, id?: number): string {
  return `event: ${event}\n${id !== undefined ? `id: ${id}\n` : ''}data: ${data}\n\n`;
}

/** `retry:` — how long (ms, an integer) an EventSource waits before reconnecting after the stream ends. */
export function sseRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.round(ms))}\n\n`;
}

/** A comment line: keeps idle connections (and the proxies between) open; clients ignore it. */
export function sseComment(text = ''): string {
  return `:${text ? ` ${text}` : ''}\n\n`;
}

/**
 * The `data` of a stamped event: `{id, seq, action, ts, data}` (CONTRACTS.md "Wave 3: live stream"),
 * built around the outbox payload as it is stored — already JSON text, never parsed here.
 * @param ts ms, the event's creation time (database clock)
 */
export function eventData(e: { id: string; seq: number; action: string; ts: number; payload: string }): string {
  return `{"id":${JSON.stringify(e.id)},"seq":${e.seq},"action":${JSON.stringify(e.action)},"ts":${e.ts},"data":${e.payload}}`;
}
