import { EventEmitter } from 'node:events';
import Redis, { Cluster, ClusterNode, ClusterOptions } from 'ioredis';
import { CONNECTION_CLOSED } from './closable-redis';

/** The members of ioredis' Cluster (5.x, 6.0) that {@link ClosableCluster} reaches; private in its typings. */
interface ClusterInternals {
  startupNodes: ClusterNode[];
  connectionPool: EventEmitter;
  setStatus(status: string): void;
  handleCloseEvent(reason?: Error): void;
}

/**
 * An ioredis {@link Cluster} whose `disconnect()` always ends: status `end` and the `end` event,
 * whatever state it is called in.
 *
 * ioredis' own `disconnect()` (5.11 and 6.0) sets `disconnecting`, disconnects every node of its pool
 * and empties it. What follows rests on two links, and each can be missing:
 * - the pool's `drain`, emitted when one of those nodes ends, sets `close`. But a node that is itself
 *   waiting to reconnect (`reconnecting`: its master restarting or gone) never ends on `disconnect()`
 *   (redis/ioredis#1247: its socket is already closed), and an empty pool has no node to end
 *   (redis/ioredis#352): with no node that can end, the cluster stays `disconnecting`;
 * - the `close` event runs ioredis' close handling (`end` after a manual disconnect, a reconnection
 *   otherwise) only through a one-shot listener each `connect()` adds. A reconnection that overlaps
 *   the previous close — BullMQ's own recovery calls `disconnect(false)` and `connect()` back to back
 *   after a failed blocking read — lets the old close use up the new listener, and the next
 *   disconnect stops at `close`.
 * Either way the cluster never emits `end`. BullMQ's `Worker.close()` waits for exactly that `end` on
 * its blocking connection (a duplicate of the connection it was given), so a worker closed after a
 * master had restarted never finished closing, and the process hung until SIGKILL (docs/decisions.md
 * "Redis: a disconnect that ends").
 *
 * Here, for a manual `disconnect()` only (never `disconnect(true)`): when no node of the pool can end
 * (each `reconnecting`, `close` or `end`, or none at all), the `close` the drain would have set is set
 * at once; and after a `close`, once ioredis' own listeners have had their turn, a cluster still at
 * `close` gets ioredis' close handling (`handleCloseEvent`: `end`). A `connect()` after the disconnect
 * cancels both — BullMQ's recovery connects again at once, and a drain of the old nodes during that
 * connect must leave ioredis and BullMQ to handle it as they do (ending the cluster then would stop
 * BullMQ's recovery for good: it never reconnects a cluster at `end`). `duplicate()` returns a
 * ClosableCluster, so BullMQ's blocking connections get the same.
 *
 * The same manual `disconnect()` also fails the commands queued on nodes that were waiting to
 * reconnect (`Connection is closed.`): ioredis leaves them pending for ever (see
 * {@link failQueuedCommands}).
 *
 * A disconnect while the seed nodes' host names are still being resolved (the cluster `connecting`,
 * no node yet) ends the same way (int-spec; run once with ioredis' own Cluster, that test failed: it
 * stayed `disconnecting`, redis/ioredis#352). Not tested: a node of the pool during its own host-name
 * lookup. ioredis counts it as one that ends — the lookup runs inside its socket (`net.connect`),
 * which the disconnect closes.
 */
export class ClosableCluster extends Cluster {
  /** A manual `disconnect()` was called and no `connect()` since: the cluster is to reach `end`. */
  private closingManually = false;

  constructor(startupNodes: ClusterNode[], options: ClusterOptions = {}) {
    super(startupNodes, options);
    // registered after ioredis' own drain listener, which sets `close` and queues the `close` event
    (this as unknown as ClusterInternals).connectionPool.on('drain', () => this.endIfStuck());
    // one listener each for every connect() waiting (a cluster failing its ready checks for minutes
    // reconnects every few seconds: a listener per attempt would pile up)
    this.on('ready', () => settleWaiters(this));
    this.on('end', () => settleWaiters(this, new Error('Connection is closed.')));
  }

  /**
   * ioredis' `connect()`, whose promise also settles when ioredis abandons it: resolved with the
   * attempt, or else at the cluster's next `ready`; rejected with the attempt's error, or at the
   * cluster's `end` ("Connection is closed.").
   *
   * ioredis' own promise (5.11, 6.0) never settles once its attempt has refreshed the slots but the
   * ready check that follows fails (a master restarted moments ago answers `cluster_state:fail` for
   * its first 2 s, Redis' CLUSTER_WRITABLE_DELAY) or the cluster is disconnected during that check:
   * ioredis drops the attempt's close listener at the refresh and reconnects (or closes) under a
   * new promise (redis/ioredis#741, open). BullMQ's recovery of a blocking connection awaits this
   * promise (`RedisConnection.reconnect` after its watchdog cut a stuck BZPOPMIN), so the worker's
   * fetch loop stopped for good — no task of that queue taken any more, and a `Worker.close()` that
   * waited for the loop for ever.
   */
  override connect(): Promise<void> {
    this.closingManually = false;
    const attempt = super.connect();
    return new Promise<void>((resolve, reject) => {
      // (a WeakMap, not a field: ioredis' constructor calls connect() before this class' fields exist)
      let waiting = waitersOf.get(this);
      if (!waiting) waitersOf.set(this, (waiting = new Set()));
      const settle = (err?: Error) => {
        waiting.delete(settle);
        if (err) reject(err);
        else resolve();
      };
      waiting.add(settle);
      attempt.then(
        () => settle(),
        (err: Error) => settle(err),
      );
    });
  }

  override disconnect(reconnect = false): void {
    const status = this.status;
    const nodes = this.nodes('all');
    const anyNodeEnds = nodes.some((node) => NODE_STATES_THAT_END.has(node.status));
    super.disconnect(reconnect);
    if (reconnect) return;
    this.closingManually = true;
    failQueuedCommands(nodes);
    // `wait`: ioredis closes a cluster that never connected itself
    if (status === 'wait' || anyNodeEnds) return;
    (this as unknown as ClusterInternals).setStatus('close');
    this.endIfStuck();
  }

  /** Like ioredis' `duplicate` (same startup nodes and options unless overridden), as a ClosableCluster. */
  override duplicate(overrideStartupNodes: ClusterNode[] = [], overrideOptions: ClusterOptions = {}): ClosableCluster {
    const startupNodes =
      overrideStartupNodes.length > 0 ? overrideStartupNodes : (this as unknown as ClusterInternals).startupNodes.slice(0);
    return new ClosableCluster(startupNodes, { ...this.options, ...overrideOptions });
  }

  /**
   * During a manual close: runs ioredis' close handling if the cluster is still at `close` once the
   * `close` event queued before this call has been emitted (process.nextTick is FIFO), i.e. no
   * listener of ioredis' took it on.
   */
  private endIfStuck(): void {
    process.nextTick(() => {
      if (this.closingManually && this.status === 'close') (this as unknown as ClusterInternals).handleCloseEvent();
    });
  }
}

/**
 * Fails the commands queued on the nodes that were waiting to reconnect when the cluster was
 * disconnected ("Connection is closed.", as a node that ends fails them). ioredis' `disconnect()` of
 * such a node only cancels its reconnection: with no socket, no `close` follows, so nothing ever
 * answers or fails what it holds — a BullMQ worker's blocking read (`BZPOPMIN`) sent while its
 * master was down stayed pending, and `Worker.close()` waited for it for ever (the whole cluster down
 * at SIGTERM: docs/faults.md). The nodes have left the pool by now (ioredis
 * removes them at the disconnect), so no event of theirs is emitted: the cluster ends as above.
 */
function failQueuedCommands(nodes: Redis[]): void {
  for (const node of nodes) {
    if (node.status !== 'reconnecting') continue;
    (node as unknown as { flushQueue(error: Error): void }).flushQueue(new Error(CONNECTION_CLOSED));
  }
}

/** Each cluster's `connect()` promises not settled yet: settled by its `ready` (resolved) or `end` (rejected) if ioredis drops them. */
const waitersOf = new WeakMap<ClosableCluster, Set<(err?: Error) => void>>();

function settleWaiters(cluster: ClosableCluster, err?: Error): void {
  for (const settle of [...(waitersOf.get(cluster) ?? [])]) settle(err);
}

/** Node states in which `disconnect()` leads to the node's `end`: it has a socket to close, or never opened one. */
const NODE_STATES_THAT_END = new Set(['wait', 'connecting', 'connect', 'ready', 'monitoring']);
