import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/env';
import { queryOne } from './query';
import { ReadServer, ReplicaRouter, ReplicaState, routedRead } from './read-routing';

/** Connections of the replica's pool in one process (it serves the routed reads only). */
const REPLICA_POOL_MAX = 5;

/**
 * The read replica in an app (docs/scaling.md, "Read replica"): with `DATABASE_REPLICA_URL`, routed
 * reads go to a second TypeORM data source over the streaming replica once it has replayed past the
 * caller's WAL position ({@link ReplicaRouter}); otherwise, and while it is down, to the primary.
 * The replica's data source is opened on first use, never at start-up, so an app starts and answers
 * with its replica down; a failed open or read marks it down for 5 s and the read runs on the primary.
 * Without `DATABASE_REPLICA_URL` every method is the primary's, with no extra statement.
 */
@Injectable()
export class ReplicaReads implements OnApplicationShutdown {
  private readonly logger = new Logger('ReplicaReads');
  private readonly router?: ReplicaRouter;
  private replica?: DataSource;
  private opening?: Promise<DataSource>;
  private closed = false;
  /** Routed reads answered by each server since start (logs, tests). */
  readonly served: Record<ReadServer, number> = { primary: 0, replica: 0 };

  constructor(
    @InjectDataSource() private readonly primary: DataSource,
    private readonly config: AppConfig,
  ) {
    if (config.DATABASE_REPLICA_URL) this.router = new ReplicaRouter(() => this.replayLsn());
  }

  /** Whether a replica is configured. */
  get configured(): boolean {
    return this.router !== undefined;
  }

  /**
   * The caller's WAL position for a routed read: the primary's `pg_current_wal_insert_lsn()` now,
   * which is at or past the commit record of every transaction committed before this call (the
   * caller's own included, whatever its `synchronous_commit`). Null without a replica (no statement).
   */
  async position(): Promise<string | null> {
    if (!this.router) return null;
    const row = await queryOne<{ lsn: string }>(this.primary, `SELECT pg_current_wal_insert_lsn()::text AS lsn`);
    return row!.lsn;
  }

  /**
   * Runs `read` on the replica when it has replayed past `lsn` (from {@link position}), else on the
   * primary; a read that fails on the replica for its connection, or is cancelled by a recovery
   * conflict, runs again on the primary. `read` must only read.
   * @returns the read's answer and the server that gave it
   */
  async read<T>(lsn: string | null, read: (db: DataSource) => Promise<T>): Promise<{ value: T; server: ReadServer }> {
    const answer = await routedRead(this.router, lsn, async (server) =>
      read(server === 'primary' ? this.primary : await this.replicaSource()),
    );
    this.served[answer.server] += 1;
    return answer;
  }

  /** The replica as last seen (for `/health/ready`); undefined without a replica. */
  state(): ReplicaState | undefined {
    return this.router?.state();
  }

  /**
   * Asks the replica now, unless it is marked down (then as last seen), for `/health/ready`;
   * undefined without a replica.
   */
  async check(): Promise<ReplicaState | undefined> {
    if (!this.router) return undefined;
    if (this.router.state().state !== 'down') await this.router.probeOnce();
    return this.router.state();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await this.opening?.catch(() => undefined);
    if (this.replica?.isInitialized) await this.replica.destroy();
  }

  /** The replica's `pg_last_wal_replay_lsn()` (null when the server is not a standby). */
  private async replayLsn(): Promise<string | null> {
    const db = await this.replicaSource();
    const row = await queryOne<{ lsn: string | null }>(
      db,
      `SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END AS lsn`,
    );
    return row?.lsn ?? null;
  }

  /** The replica's data source, opened on first use (one open at a time); a failed open is thrown to the router. */
  private replicaSource(): Promise<DataSource> {
    if (this.replica?.isInitialized) return Promise.resolve(this.replica);
    if (this.closed) return Promise.reject(new Error('replica reads closed (shutting down)'));
    this.opening ??= this.open().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async open(): Promise<DataSource> {
    const base = this.primary.options as DataSourceOptions & { extra?: Record<string, unknown> };
    const source = new DataSource({
      ...base,
      url: this.config.DATABASE_REPLICA_URL,
      migrations: [],
      // a standby is read-only: TypeORM must not try to CREATE EXTENSION there
      installExtensions: false,
      extra: { ...base.extra, max: REPLICA_POOL_MAX, connectionTimeoutMillis: 2000, application_name: 'fieldwork-replica-read' },
    } as DataSourceOptions);
    try {
      await source.initialize();
    } catch (err) {
      await source.destroy().catch(() => undefined);
      throw err;
    }
    this.logger.log('replica data source opened');
    this.replica = source;
    return source;
  }
}
