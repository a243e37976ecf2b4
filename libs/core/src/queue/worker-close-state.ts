/**
 * What a BullMQ worker that is slow to close is waiting for, in one line for the shutdown trace
 * (`closeWorkers`): its main loop (tasks in hand, a blocking fetch pending), then its blocking and
 * main connections — BullMQ's own state of each (`initializing`, `ready`, `closing`, `closed`), the
 * ioredis client's status and, for a Cluster, its nodes' statuses by count. For example:
 * `loop: 1 pending, a fetch among them; blocking: ready (ioredis end; nodes none); main: ready (ioredis ready; nodes ready ×3)`
 * — a fetch that never returned although its connection ended (as seen before `ClosableCluster.connect`).
 *
 * Read from BullMQ 6's (6.7) and ioredis 5's own fields, none of them public API: `mainLoopQueue`,
 * `waiting`, `closed`, `backend.blockingConnection` / `backend.connection` (a `RedisConnection`:
 * `status`, `_client`). Each read is guarded: a field an upgrade renames reads as `?`, never throws.
 * A trace only: nothing decides on it.
 */
export function workerCloseState(worker: object): string {
  const w = worker as Record<string, unknown>;
  if (field(w, 'closed') === true) return 'closed';
  const backend = field(w, 'backend');
  return [
    `loop: ${loopState(w)}`,
    `blocking: ${connectionState(field(backend, 'blockingConnection'))}`,
    `main: ${connectionState(field(backend, 'connection'))}`,
  ].join('; ');
}

function loopState(w: Record<string, unknown>): string {
  const queue = field(w, 'mainLoopQueue');
  if (queue === null) return 'ended';
  const numTotal = field(queue, 'numTotal');
  // the loop's queue holds the tasks in hand and the fetches not yet taken up
  const pending = typeof numTotal === 'function' ? String(numTotal.call(queue)) : '?';
  return `${pending} pending${field(w, 'waiting') ? ', a fetch among them' : ''}`;
}

function connectionState(connection: unknown): string {
  if (connection === undefined || connection === null) return 'none';
  const own = field(connection, 'status');
  const client = field(connection, '_client');
  const status = field(client, 'status');
  const nodes = clusterNodes(client);
  return `${typeof own === 'string' ? own : '?'} (ioredis ${typeof status === 'string' ? status : '?'}${nodes ? `; nodes ${nodes}` : ''})`;
}

/** A Cluster client's nodes by status (`ready ×2, reconnecting ×1`), '' for one server or none. */
function clusterNodes(client: unknown): string {
  if (field(client, 'isCluster') !== true) return '';
  try {
    const nodes = (client as { nodes(role: 'all'): Array<{ status: string }> }).nodes('all');
    if (!nodes.length) return 'none';
    const counts = new Map<string, number>();
    for (const node of nodes) counts.set(node.status, (counts.get(node.status) ?? 0) + 1);
    return [...counts].map(([status, n]) => `${status} ×${n}`).join(', ');
  } catch {
    return '?';
  }
}

/** `object[name]`, or undefined when `object` is not an object or reading throws. */
function field(object: unknown, name: string): unknown {
  if (typeof object !== 'object' || object === null) return undefined;
  try {
    return (object as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}
