/**
 * A trace for a stop that outlives its grace period (docs/decisions.md, "Operations", "Shutdown
 * trace"). The waits the code knows of name themselves while they last (`closeWorkers`, the webhook
 * processor's passes, `WebhookHttp`'s drains); this one speaks whatever the process waits for, so a
 * stop where none of them speaks still shows how long it has been stopping and what holds its event
 * loop open.
 */

/** ms between two lines of any shutdown trace: {@link watchShutdown}'s and the named waits'. */
export const SHUTDOWN_TRACE_EVERY_MS = 5_000;

/**
 * What holds the event loop open, counted by kind, most first: `process.getActiveResourcesInfo()`
 * (Node ≥ 17; e.g. `TCPSocketWrap ×3, Timeout ×2, FSReqCallback`), or `nothing` for an empty list.
 * Pure: the list is a parameter.
 */
export function describeActiveResources(kinds: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  if (!counts.size) return 'nothing';
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([kind, n]) => (n > 1 ? `${kind} ×${n}` : kind))
    .join(', ');
}

/**
 * From the call (a shutdown signal), every `everyMs` ms warns on `logger`
 * `shutdown: still stopping after <s> s; open: <describeActiveResources>` until the process exits or
 * the returned function is called. The timer is unref'd: it never keeps the process alive itself.
 * @param resources what is open (default `process.getActiveResourcesInfo`; tests pass their own)
 * @returns stops the trace
 */
export function watchShutdown(
  logger: { warn(message: string): void },
  everyMs = SHUTDOWN_TRACE_EVERY_MS,
  resources: () => string[] = () => process.getActiveResourcesInfo(),
): () => void {
  const since = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - since) / 1000);
    logger.warn(`shutdown: still stopping after ${seconds} s; open: ${describeActiveResources(resources())}`);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
