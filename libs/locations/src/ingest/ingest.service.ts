import { AppConfig, MicroBatcher, outboxEvent, OutboxEventInput, OutboxService, preparedQuery, query, queryOne, QueueName, TaskProducer } from '@app/core';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { INGEST_DEVICE_SQL, INGEST_MEMBER_SQL, IngestItem, ingestParams, IngestRow } from './ingest-sql';
import { FixesTask } from '../fix-consumers';
import { Fix } from '../fix';
import { LocationSource } from '../entities/member-location.entity';
import { advanceLatest, LatestState } from './latest-location';
import { monthStart } from './partitions';
import { TrailingDebounce } from './trailing-debounce';

/** ms: a known latest fix this close to a clock event's time gives the event its `location`. */
export const CLOCK_LOCATION_MAX_AGE_MS = 10 * 60_000;
/** ms a month's partition is trusted to exist without asking the database again. */
const PARTITION_CACHE_MS = 10 * 60_000;
/** SQLSTATE `check_violation`: PostgreSQL's "no partition of relation found for row". */
const NO_PARTITION = '23514';
/** ms the fixes tasks of finished calls wait to be sent to Redis together. */
export const ENQUEUE_WINDOW_MS = 20;
/** At most this many fixes tasks in one `addBulk`. */
export const ENQUEUE_MAX_BATCH = 200;
/** ms: a `tracks` task rebuilds from the start of this bucket of its first fix, so joined calls' late fixes of the bucket are covered. */
export const TRACK_BUCKET_MS = 10 * 60_000;

/**
 * ms between two sends of one member's (and bucket's) track build by one api process: the build is
 * delayed `TRACK_BUILD_DELAY_MS` and deduplicated in the queue anyway, so re-sending it on every call
 * only repeated a no-op add in Redis (one of the three Redis commands of an `/osmand` request).
 * A quarter of the delay, at most 1 s (0 = every call): a call's build is sent at most this much later.
 */
export function trackBuildWindowMs(trackBuildDelayMs: number): number {
  return Math.min(1000, Math.floor(trackBuildDelayMs / 4));
}

/** One `/osmand` request in the group commit: its statement item, and its row once its pass ran. */
interface DeviceSlot {
  item: IngestItem;
  row?: IngestRow;
}

/** A debounced `build` task as sent to the Tracks queue. */
interface TrackBuildTask {
  name: 'build';
  data: FixesTask;
  opts: { delay: number; deduplication: { id: string; keepLastIfActive: boolean } };
}

/** The fixes as the column arrays the insert statements `unnest` ($ts, lat, lng, acc, dir, spd, elv, bat). */
function fixColumns(fixes: readonly Fix[]): unknown[][] {
  return [
    fixes.map((f) => f.ts),
    fixes.map((f) => f.lat),
    fixes.map((f) => f.lng),
    fixes.map((f) => f.acc),
    fixes.map((f) => f.dir),
    fixes.map((f) => f.spd),
    fixes.map((f) => f.elv),
    fixes.map((f) => f.bat),
  ];
}

/** `pushlocations`' `device`: the details `locate` answers with `withDetails`; only the ones sent change. */
export interface DeviceDetails {
  connection_type?: number;
  android_id?: string;
  loc_gps_on?: boolean;
  loc_net_on?: boolean;
}

/** One ingestion call, its fixes already validated ({@link validateFixes}). */
export interface IngestInput {
  companyId: string;
  memberId: string;
  /** valid fixes in the order sent (duplicates by `ts` allowed: counted) */
  fixes: readonly Fix[];
  /** `app` = pushlocations; `osmand` = Traccar Client (counts as tracking, fires no clock events, no pings) */
  source: LocationSource;
  /** the phone's reported tracking state (pushlocations only) */
  tracking?: boolean;
  /** ms the tracking state changed on the phone; default the receive time */
  trackingTs?: number;
  device?: DeviceDetails;
  /** ms, the receive time (the server's clock) */
  now: number;
}

/** What one ingestion did. */
export interface IngestResult {
  /** fixes newly stored */
  accepted: number;
  /** fixes already stored for the member at the same `ts` (from an earlier call or earlier in this one) */
  duplicates: number;
  /** a `locate` ping was pending and is delivered by this answer */
  ping: boolean;
  /** the clock event fired, if any */
  clock?: 'clockin' | 'clockout';
}

const CLOCK_KEYS = { clockin: 'clock_in_out', clockout: 'clock_in_out' } as const;

interface StoredRow {
  ts: number | null;
  lat: number | null;
  lng: number | null;
  acc: number | null;
  dir: number | null;
  spd: number | null;
  elv: number | null;
  bat: number | null;
  anchor_ts: number | null;
  anchor_lat: number | null;
  anchor_lng: number | null;
  tracking_status: boolean;
  tracking_ts: number;
  ping_requested_at: number | null;
}

const INSERT_FIXES = `WITH ins AS (
  INSERT INTO location_fixes (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, received_at)
  SELECT $1, $2, u.ts, u.lat, u.lng, u.acc, u.dir, u.spd, u.elv, u.bat, $3
    FROM unnest($4::bigint[], $5::float8[], $6::float8[], $7::int[], $8::int[], $9::float8[], $10::int[], $11::int[])
      AS u(ts, lat, lng, acc, dir, spd, elv, bat)
  ON CONFLICT DO NOTHING
  RETURNING ts)
SELECT count(*)::int AS n, min(ts)::float8 AS lo, max(ts)::float8 AS hi FROM ins`;

// creates the member's row when missing and locks it either way, answering the stored values
const LOCK_ROW = `INSERT INTO member_locations (company_id, member_id, updated_at) VALUES ($1, $2, $3)
  ON CONFLICT (company_id, member_id) DO UPDATE SET updated_at = member_locations.updated_at
  RETURNING ts::float8 AS ts, lat, lng, acc, dir, spd, elv, bat, anchor_ts::float8 AS anchor_ts, anchor_lat, anchor_lng,
    tracking_status, tracking_ts::float8 AS tracking_ts, ping_requested_at::float8 AS ping_requested_at`;

const UPDATE_ROW = `UPDATE member_locations SET
    ts = $3, lat = $4, lng = $5, acc = $6, dir = $7, spd = $8, elv = $9, bat = $10,
    source = COALESCE($11, source), received_at = COALESCE($12, received_at),
    anchor_ts = $13, anchor_lat = $14, anchor_lng = $15,
    tracking_status = $16, tracking_ts = $17,
    connection_type = COALESCE($18, connection_type), android_id = COALESCE($19, android_id),
    loc_gps_on = COALESCE($20, loc_gps_on), loc_net_on = COALESCE($21, loc_net_on),
    ping_requested_at = $22, signal_ts = COALESCE($23, signal_ts), updated_at = $24,
    late_fix_count = late_fix_count + $25
  WHERE company_id = $1 AND member_id = $2`;

/**
 * Device ingestion (CONTRACTS.md "Locations, devices, tracks"; `pushlocations` and `/osmand`): one
 * transaction per call of set-based statements — the fixes into the partitioned history (duplicates
 * ignored and counted), the member's latest location (only ever forward, with its `states.moving`
 * anchor), device details, the tracking state with its clock event (row + outbox event), and a
 * pending ping delivered — then, after commit, one Locations `fixes` task for the worker.
 */
@Injectable()
export class IngestService implements OnApplicationShutdown {
  private readonly logger = new Logger('Ingest');
  /** month start (ms) → until when its partition is trusted to exist (ms) */
  private readonly knownMonths = new Map<number, number>();
  /** fixes tasks of calls committed since the last flush */
  private readonly pending: FixesTask[] = [];
  private flushTimer?: NodeJS.Timeout;
  /** the debounced track builds: one per member and bucket per {@link trackBuildWindowMs} (a trailing one for the calls in between) */
  private readonly builds: TrailingDebounce<TrackBuildTask>;
  /** the group commit of `/osmand` requests ({@link ingestDevice}) */
  private readonly devices: MicroBatcher<DeviceSlot>;
  /** `/osmand` group commit so far: statements run, requests they held, the most in one */
  private readonly counts = { statements: 0, items: 0, maxItems: 0 };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly producer: TaskProducer,
    private readonly config: AppConfig,
  ) {
    this.builds = new TrailingDebounce(trackBuildWindowMs(config.TRACK_BUILD_DELAY_MS), (builds) =>
      this.producer
        .addBulk(QueueName.Tracks, builds)
        .catch((err: Error) => this.logger.warn(`could not enqueue ${builds.length} track builds: ${err.message}`)),
    );
    this.devices = new MicroBatcher((slots) => this.devicePass(slots), {
      maxSize: config.OSMAND_GROUP_COMMIT_SIZE,
      maxInFlight: config.OSMAND_GROUP_COMMIT_PASSES,
      // one statement may upsert a member's row once; members.device_id is unique by lower() (JS and
      // PostgreSQL lower-case a few characters differently: such a pair fails its statement with 21000,
      // and the batcher then runs each request alone)
      key: (slot) => slot.item.member.toLowerCase(),
    });
  }

  /**
   * Stores one call's fixes and state for a known member. A call reporting `tracking` runs the
   * transaction that may fire a clock event; any other call is ONE statement ({@link INGEST_MEMBER_SQL}).
   * @returns counts, and whether a ping is delivered.
   */
  async ingest(input: IngestInput): Promise<IngestResult> {
    const { unique, duplicates: inCall } = dedupeByTs(input.fixes);
    if (input.tracking === undefined || input.source !== 'app') {
      const item = { companyId: input.companyId, member: input.memberId, fixes: unique, source: input.source, now: input.now, device: input.device };
      const [row] = await this.statement('fieldwork_ingest_member', INGEST_MEMBER_SQL, [item]);
      this.enqueue(input.companyId, input.memberId, row);
      return { accepted: row.n, duplicates: unique.length - row.n + inCall, ping: row.ping };
    }
    const attempt = () => this.dataSource.transaction((db) => this.write(db, input, unique));
    const { result, range, events } = await this.withPartitions(unique, attempt);
    this.outbox.wake(events);
    if (range) this.enqueue(input.companyId, input.memberId, { n: result.accepted, lo: range.lo, hi: range.hi });
    return { ...result, duplicates: result.duplicates + inCall };
  }

  /**
   * `/osmand`: stores one device's fixes (Traccar Client: tracking on, no clock event, no ping) for
   * the active member holding `deviceId` (case-insensitive), found by the same statement. Group
   * commit: requests arriving while `OSMAND_GROUP_COMMIT_PASSES` statements run ride together in the
   * next one (up to `OSMAND_GROUP_COMMIT_SIZE`, one request per device); resolves once its statement
   * committed. A failed statement over several requests is run again for each alone, so a request
   * fails only for its own error.
   * @returns the member and the counts, or null when no active member holds the device id (nothing stored)
   */
  async ingestDevice(
    deviceId: string,
    fixes: readonly Fix[],
    now: number,
  ): Promise<(IngestResult & { companyId: string; memberId: string }) | null> {
    const { unique, duplicates: inCall } = dedupeByTs(fixes);
    const slot: DeviceSlot = { item: { companyId: null, member: deviceId, fixes: unique, source: 'osmand', now } };
    await this.devices.submit(slot);
    const row = slot.row!;
    if (!row.company_id || !row.member_id) return null;
    this.enqueue(row.company_id, row.member_id, row);
    return { companyId: row.company_id, memberId: row.member_id, accepted: row.n, duplicates: unique.length - row.n + inCall, ping: false };
  }

  /**
   * Runs the ingest statement over `items` (a named prepared statement on the driver's pool), the
   * months of their fixes' partitions made first.
   * @returns one row per item, in item order
   * @throws Error when the statement answers another number of rows (never expected)
   */
  private async statement(name: string, sql: string, items: readonly IngestItem[]): Promise<IngestRow[]> {
    const fixes = items.length === 1 ? items[0].fixes : items.flatMap((i) => i.fixes);
    const rows = await this.withPartitions(fixes, () => preparedQuery<IngestRow>(this.dataSource, name, sql, ingestParams(items)));
    if (rows.length !== items.length) throw new Error(`ingest statement answered ${rows.length} rows for ${items.length} items`);
    return rows;
  }

  /** One group commit pass of `/osmand` requests: ONE statement for all, each request's row put on its slot. */
  private async devicePass(slots: DeviceSlot[]): Promise<void> {
    const rows = await this.statement(
      'fieldwork_ingest_device',
      INGEST_DEVICE_SQL,
      slots.map((s) => s.item),
    );
    slots.forEach((s, k) => (s.row = rows[k]));
    this.counts.statements++;
    this.counts.items += slots.length;
    this.counts.maxItems = Math.max(this.counts.maxItems, slots.length);
  }

  /**
   * The `/osmand` group commit since start (for tests and benchmarks): `statements` that committed,
   * the requests they held (`items`; the most in one: `maxItems`), and requests `waiting` for a
   * statement now.
   */
  get groupCommitStats(): { statements: number; items: number; maxItems: number; waiting: number } {
    return { ...this.counts, waiting: this.devices.pending };
  }

  /**
   * Runs `attempt` with the months of `fixes` known to have partitions; if one vanished behind the
   * cache (SQLSTATE 23514, nothing was written), makes them all and runs it once more.
   */
  private async withPartitions<T>(fixes: readonly Fix[], attempt: () => Promise<T>): Promise<T> {
    await this.ensurePartitions(fixes, false);
    try {
      return await attempt();
    } catch (err) {
      if (sqlState(err) !== NO_PARTITION) throw err;
      await this.ensurePartitions(fixes, true);
      return attempt();
    }
  }

  /**
   * After commit: one Locations `fixes` task for the call's newly stored fixes (none when nothing was
   * accepted), coalesced per member (BullMQ deduplication with `keepLastIfActive`: at most one task
   * waiting and one running per member; the consumers read everything newer than their state). Not awaited: tasks are sent to Redis in one `addBulk` per {@link ENQUEUE_WINDOW_MS}
   * (or per {@link ENQUEUE_MAX_BATCH} tasks), since a BullMQ add per call was the api's largest CPU
   * cost under load. A Redis failure is logged, never failing the call (its fixes are stored).
   */
  private enqueue(companyId: string, memberId: string, row: { n: number; lo: number | null; hi: number | null }): void {
    if (!row.n || row.lo === null || row.hi === null) return;
    this.pending.push({ companyId, memberId, fromTs: row.lo, toTs: row.hi });
    if (this.pending.length >= ENQUEUE_MAX_BATCH) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), ENQUEUE_WINDOW_MS);
  }

  /** Sends the pending fixes tasks in one `addBulk`, and their debounced track builds in another. */
  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const tasks = this.pending.splice(0);
    if (!tasks.length) return;
    this.builds.offer(
      tasks.map((data) => {
        const bucket = Math.floor(data.fromTs / TRACK_BUCKET_MS) * TRACK_BUCKET_MS;
        const id = `tracks:${data.companyId}:${data.memberId}:${bucket}`;
        return {
          key: id,
          item: {
            name: 'build' as const,
            data: { ...data, fromTs: bucket },
            // TRACK_BUILD_DELAY_MS: calls meanwhile (same bucket) join this task, since a rebuild re-reads the
            // open track; one task waits per member and bucket, and a call while it runs leaves one more
            opts: { delay: this.config.TRACK_BUILD_DELAY_MS, deduplication: { id, keepLastIfActive: true } },
          },
        };
      }),
    );
    this.producer
      .addBulk(
        QueueName.Locations,
        tasks.map((data) => ({
          name: 'fixes' as const,
          data,
          // one waiting task per member: a call while one waits joins it (every consumer evaluates all
          // the member's fixes newer than its own state, up to when it runs), a call while one runs
          // leaves one more to run after it — so a backlog holds at most two tasks per member, never
          // one per call, and an idle worker starts a member's task at once (no delay)
          opts: { deduplication: { id: `fixes:${data.companyId}:${data.memberId}`, keepLastIfActive: true } },
        })),
      )
      .catch((err: Error) => this.logger.warn(`could not enqueue ${tasks.length} fixes tasks: ${err.message}`));
  }

  /** Sends what is pending (and the held track builds) when the app stops. */
  onApplicationShutdown(): void {
    this.flush();
    this.builds.drain();
  }

  /** The transaction of a `pushlocations` call reporting `tracking` (the only path that may fire a clock event). */
  private async write(db: EntityManager, input: IngestInput, fixes: Fix[]) {
    const { companyId, memberId, now } = input;
    const stored = (await queryOne<StoredRow>(db, LOCK_ROW, [companyId, memberId, now]))!;

    let accepted = 0;
    let range: { lo: number; hi: number } | null = null;
    if (fixes.length) {
      const ins = (await queryOne<{ n: number; lo: number | null; hi: number | null }>(db, INSERT_FIXES, [
        companyId,
        memberId,
        now,
        ...fixColumns(fixes),
      ]))!;
      accepted = ins.n;
      if (ins.n > 0) range = { lo: ins.lo!, hi: ins.hi! };
    }

    const before: LatestState = {
      latest:
        stored.ts === null
          ? null
          : {
              ts: stored.ts,
              lat: stored.lat!,
              lng: stored.lng!,
              acc: stored.acc,
              dir: stored.dir,
              spd: stored.spd,
              elv: stored.elv,
              bat: stored.bat,
            },
      anchor: stored.anchor_ts === null ? null : { ts: stored.anchor_ts, lat: stored.anchor_lat!, lng: stored.anchor_lng! },
    };
    const advanced = advanceLatest(before, fixes);
    const after = advanced ?? before;

    // a change of the reported state, newer than the stored one, fires a clock event; a repeat nothing
    let trackingStatus = stored.tracking_status;
    let trackingTs = stored.tracking_ts;
    let clock: 'clockin' | 'clockout' | undefined;
    const ts = input.trackingTs ?? now;
    if (input.tracking !== undefined && input.tracking !== stored.tracking_status && ts > stored.tracking_ts) {
      trackingStatus = input.tracking;
      trackingTs = ts;
      clock = input.tracking ? 'clockin' : 'clockout';
    }

    const ping = stored.ping_requested_at !== null;
    const deviceChanged = input.device !== undefined && Object.keys(input.device).length > 0;
    // a stored fix older than the latest (read under the row's lock): counted for the track builder, as by INGEST_MEMBER_SQL
    const late = range !== null && stored.ts !== null && range.lo < stored.ts;
    const changed =
      advanced !== null || trackingStatus !== stored.tracking_status || trackingTs !== stored.tracking_ts || ping || deviceChanged || late;
    if (changed) {
      const l = after.latest;
      const d = input.device ?? {};
      await db.query(UPDATE_ROW, [
        companyId,
        memberId,
        l?.ts ?? null,
        l?.lat ?? null,
        l?.lng ?? null,
        l?.acc ?? null,
        l?.dir ?? null,
        l?.spd ?? null,
        l?.elv ?? null,
        l?.bat ?? null,
        advanced ? input.source : null,
        advanced ? now : null,
        after.anchor?.ts ?? null,
        after.anchor?.lat ?? null,
        after.anchor?.lng ?? null,
        trackingStatus,
        trackingTs,
        d.connection_type ?? null,
        d.android_id ?? null,
        d.loc_gps_on ?? null,
        d.loc_net_on ?? null,
        ping ? null : stored.ping_requested_at,
        ping ? now : null,
        now,
        late ? 1 : 0,
      ]);
    }

    const events: string[] = [];
    if (clock) {
      const newest = fixes.length ? fixes.reduce((a, b) => (b.ts > a.ts ? b : a)) : null;
      const known = after.latest && Math.abs(after.latest.ts - trackingTs) <= CLOCK_LOCATION_MAX_AGE_MS ? after.latest : null;
      const at = newest ?? known;
      events.push(...(await this.recordClock(db, input, clock, trackingTs, at ? { lat: at.lat, lng: at.lng } : undefined)));
    }
    return { result: { accepted, duplicates: fixes.length - accepted, ping, clock }, range, events };
  }

  /** The `clock_events` row and the `clockin`/`clockout` outbox event, in the caller's transaction. */
  private async recordClock(
    db: EntityManager,
    input: IngestInput,
    action: 'clockin' | 'clockout',
    ts: number,
    location: { lat: number; lng: number } | undefined,
  ): Promise<string[]> {
    const { companyId, memberId } = input;
    const member = await queryOne<{ name: string; username: string }>(
      db,
      `SELECT name, username FROM members WHERE company_id = $1 AND id = $2`,
      [companyId, memberId],
    );
    const inserted = await query<{ ts: string }>(
      db,
      `INSERT INTO clock_events (company_id, member_id, ts, tracking, lat, lng, received_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT DO NOTHING RETURNING ts`,
      [companyId, memberId, ts, action === 'clockin', location?.lat ?? null, location?.lng ?? null, input.now],
    );
    if (!inserted.length) return [];
    const who = { uid: memberId, name: member?.name ?? '', username: member?.username ?? '' };
    const data = { who, tracking: action === 'clockin', ts, ...(location ? { location } : {}) };
    const event: OutboxEventInput =
      action === 'clockin'
        ? outboxEvent(CLOCK_KEYS, 'clockin', { companyId, formId: `${memberId}-${ts}-clockin`, data })
        : outboxEvent(CLOCK_KEYS, 'clockout', { companyId, formId: `${memberId}-${ts}-clockout`, data });
    return this.outbox.appendMany(db, [event]);
  }

  /**
   * Makes sure the months of `fixes` have their partitions: months not known (or all of them, when
   * `force`) are created if missing by `location_fixes_ensure_partition`, outside the ingest
   * transaction (creating a partition locks the parent table briefly).
   */
  private async ensurePartitions(fixes: readonly Fix[], force: boolean): Promise<void> {
    const now = Date.now();
    const months = [...new Set(fixes.map((f) => monthStart(f.ts)))].filter((m) => force || (this.knownMonths.get(m) ?? 0) < now);
    if (!months.length) return;
    await this.dataSource.query(`SELECT location_fixes_ensure_partition(m) FROM unnest($1::bigint[]) AS m`, [months]);
    for (const m of months) this.knownMonths.set(m, now + PARTITION_CACHE_MS);
  }
}

/** The fixes with the first of each `ts` kept (order kept), and how many were dropped as repeats. */
export function dedupeByTs(fixes: readonly Fix[]): { unique: Fix[]; duplicates: number } {
  const seen = new Set<number>();
  const unique: Fix[] = [];
  for (const f of fixes) {
    if (seen.has(f.ts)) continue;
    seen.add(f.ts);
    unique.push(f);
  }
  return { unique, duplicates: fixes.length - unique.length };
}

function sqlState(err: unknown): string | undefined {
  const e = err as { code?: string; driverError?: { code?: string } };
  return e?.code ?? e?.driverError?.code;
}
