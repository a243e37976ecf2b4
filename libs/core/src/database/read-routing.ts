/**
 * Which server a routed read goes to (docs/scaling.md, "Read replica"): pure rules, no Nest and no
 * driver, shared by the api (gettracks, over TypeORM) and the worker's report threads (over `pg`).
 */
import { isDatabaseUnavailable } from './pg-errors';

/** The server a routed read ran on. */
export type ReadServer = 'primary' | 'replica';

/**
 * A WAL position in PostgreSQL's `pg_lsn` text form (`16/B374D848`: high and low 32 bits in hex) as
 * a number of bytes, for comparison.
 * @throws Error naming the text when it is not an LSN
 */
export function lsnBytes(lsn: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn);
  if (!m) throw new Error(`not a WAL position (pg_lsn): ${JSON.stringify(lsn)}`);
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}

/** Whether the replica, having replayed up to `replayed`, has everything committed before `needed`. */
export function hasReplayed(replayed: string, needed: string): boolean {
  return lsnBytes(replayed) >= lsnBytes(needed);
}

/**
 * True when a read that failed on the replica should run again on the primary: the replica could
 * not be reached or went away ({@link isDatabaseUnavailable}, a shutdown, a standby refusing
 * connections), or a standby cancelled it for a conflict with recovery (SQLSTATE 40001 on a standby:
 * replaying the primary's vacuum removed rows the read still needed).
 */
export function isReplicaReadFailure(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string } };
  const code = e?.code ?? e?.driverError?.code ?? '';
  return isDatabaseUnavailable(err) || ['57P02', '40001', '08000', '08004'].includes(code);
}

/** The replica as the router last saw it (`/health/ready`, logs). */
export interface ReplicaState {
  /** `up`: its last probe answered; `down`: unreachable or not a standby, until `downForMs` passes; `unknown`: not probed yet */
  state: 'up' | 'down' | 'unknown';
  /** the replay position it last answered (pg_lsn text), if any */
  replayLsn: string | null;
  /** ms until it is probed again, when down */
  downForMs: number;
  /** why it is down (the last error, or "not in recovery") */
  reason?: string;
}

/** The router's timings (ms). */
export interface ReplicaRouterOptions {
  /** how long a probed replay position is trusted before asking again when a read needs more (default 100) */
  cacheMs?: number;
  /** how long the replica is left alone after a failure (default 5000) */
  downMs?: number;
  /** the probe's bound: a replica that accepts but does not answer counts as down (default 1000) */
  probeTimeoutMs?: number;
  /** monotonic clock, ms (tests pass their own) */
  now?: () => number;
}

/**
 * Picks the server for one routed read from the caller's WAL position (the primary's
 * `pg_current_wal_insert_lsn()` taken when the report run or the request was created):
 * - no replica, or no position → the primary;
 * - the replica marked down (a probe or a read failed within `downMs`) → the primary;
 * - the replica's replay position (probed at most once per `cacheMs`; concurrent reads share one
 *   probe) at or past the position → the replica; behind it → the primary.
 * `probe` answers the replica's `pg_last_wal_replay_lsn()` (null when the server is not a standby —
 * a promoted replica no longer follows the primary, so it counts as down).
 */
export class ReplicaRouter {
  private replayed: string | null = null;
  private probedAt = -Infinity;
  private downUntil = -Infinity;
  private reason?: string;
  private inFlight?: Promise<string | null>;
  private readonly cacheMs: number;
  private readonly downMs: number;
  private readonly probeTimeoutMs: number;
  private readonly now: () => number;

  constructor(
    private readonly probe: () => Promise<string | null>,
    opts: ReplicaRouterOptions = {},
  ) {
    this.cacheMs = opts.cacheMs ?? 100;
    this.downMs = opts.downMs ?? 5000;
    this.probeTimeoutMs = opts.probeTimeoutMs ?? 1000;
    this.now = opts.now ?? (() => performance.now());
  }

  /** The server for a read that must see every commit before `lsn` (null: position unknown → primary). */
  async choose(lsn: string | null): Promise<ReadServer> {
    if (lsn === null || this.now() < this.downUntil) return 'primary';
    if (this.replayed !== null && hasReplayed(this.replayed, lsn)) return 'replica';
    if (this.now() - this.probedAt < this.cacheMs) return 'primary';
    const replayed = await this.probeOnce();
    return replayed !== null && hasReplayed(replayed, lsn) ? 'replica' : 'primary';
  }

  /** Marks the replica down for `downMs` (a read on it failed with `err`). */
  markDown(err: unknown): void {
    this.downUntil = this.now() + this.downMs;
    this.replayed = null;
    this.reason = err instanceof Error ? err.message : String(err);
  }

  /** What the router last saw of the replica. */
  state(): ReplicaState {
    const downForMs = Math.max(0, Math.ceil(this.downUntil - this.now()));
    if (downForMs > 0) return { state: 'down', replayLsn: null, downForMs, reason: this.reason };
    return { state: this.replayed === null ? 'unknown' : 'up', replayLsn: this.replayed, downForMs: 0 };
  }

  /** Probes now (sharing a probe in flight) and updates the cache; null when down. */
  async probeOnce(): Promise<string | null> {
    this.inFlight ??= this.runProbe().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async runProbe(): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const replayed = await Promise.race([
        this.probe(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.probeTimeoutMs} ms`)), this.probeTimeoutMs);
        }),
      ]);
      if (replayed === null) {
        this.markDown(new Error('not in recovery (not a standby)'));
        return null;
      }
      this.replayed = replayed;
      this.probedAt = this.now();
      return replayed;
    } catch (err) {
      this.markDown(err);
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Runs `read` on the server {@link ReplicaRouter.choose} picks for `lsn`; when it fails on the replica
 * with {@link isReplicaReadFailure}, marks the replica down (not for a recovery conflict, which says
 * nothing of its health) and runs `read` again on the primary, so a replica going away is never seen
 * by the client. `read` must be safe to run twice (reads are).
 * @returns the read's answer and the server that gave it
 */
export async function routedRead<T>(
  router: ReplicaRouter | undefined,
  lsn: string | null,
  read: (server: ReadServer) => Promise<T>,
): Promise<{ value: T; server: ReadServer }> {
  const server = router ? await router.choose(lsn) : 'primary';
  if (server === 'primary') return { value: await read('primary'), server };
  try {
    return { value: await read('replica'), server };
  } catch (err) {
    if (!isReplicaReadFailure(err)) throw err;
    const code =
      (err as { code?: string; driverError?: { code?: string } }).code ?? (err as { driverError?: { code?: string } }).driverError?.code;
    if (code !== '40001') router!.markDown(err);
    return { value: await read('primary'), server: 'primary' };
  }
}
