/**
 * Stream helpers the format writers share: waiting for `drain` (backpressure) without hanging when
 * the pipeline fails, and waiting for an output to finish.
 */
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';

/**
 * Resolves when `stream` emits `drain`; rejects when `failed` rejects first (the pipeline behind it
 * broke, so no `drain` will come). `failed` resolving first (the pipeline ended) also resolves.
 */
export async function drained(stream: Writable, failed?: Promise<unknown>): Promise<void> {
  const ac = new AbortController();
  const drain = once(stream, 'drain', { signal: ac.signal }).then(() => undefined);
  try {
    await (failed ? Promise.race([drain, failed.then(() => undefined)]) : drain);
  } finally {
    ac.abort();
    drain.catch(() => undefined);
  }
}

/** Writes `chunk`, then waits for `drain` when the stream's buffer is full (see {@link drained}). */
export async function writeChunk(stream: Writable, chunk: unknown, failed?: Promise<unknown>): Promise<void> {
  if (!stream.write(chunk)) await drained(stream, failed);
}

/** Resolves when `out`'s writable side has finished (all bytes handed on); rejects on its error. */
export function outputFinished(out: Writable): Promise<void> {
  return finished(out, { readable: false });
}
