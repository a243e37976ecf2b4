import { AppConfig, OutboxService } from '@app/core';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Fix } from '../fix';
import { CLOCK_LOCATION_MAX_AGE_MS, ClockEventsService } from './clock-events.service';
import { FixPartitions } from './fix-partitions.service';
import { FixTasksProducer } from './fix-tasks.producer';
import { dedupeByTs, IngestInput, IngestResult } from './ingest-input';
import { GroupCommitStats, IngestGroupCommit } from './ingest-group-commit';
import { IngestRepository } from './ingest.repository';
import { advanceLatest, LatestState } from './latest-location';

/**
 * Device ingestion of a known member (CONTRACTS.md "Locations, devices, tracks"; `pushlocations`):
 * one transaction per call of set-based statements — the fixes into the partitioned history
 * (duplicates ignored and counted), the member's latest location (only ever forward, with its
 * `states.moving` anchor), device details, the tracking state with its clock event
 * ({@link ClockEventsService}), and a pending ping delivered — then, after commit, one Locations
 * `fixes` task for the worker ({@link FixTasksProducer}). A call without `tracking` is one item of
 * a group commit (docs/locations-ingest.md, *Group commit*): calls arriving while
 * `PUSH_GROUP_COMMIT_PASSES` statements run ride together in the next one. `/osmand` requests go
 * through {@link OsmandGroupCommit} instead.
 */
@Injectable()
export class PushLocationsService {
  /** the group commit of calls without `tracking` ({@link ingest}) */
  private readonly members: IngestGroupCommit;

  constructor(
    private readonly repo: IngestRepository,
    private readonly partitions: FixPartitions,
    private readonly clock: ClockEventsService,
    private readonly tasks: FixTasksProducer,
    private readonly outbox: OutboxService,
    config: AppConfig,
  ) {
    this.members = new IngestGroupCommit((items) => repo.ingestMembers(items), partitions, {
      maxSize: config.PUSH_GROUP_COMMIT_SIZE,
      maxInFlight: config.PUSH_GROUP_COMMIT_PASSES,
      // one statement may upsert a member's `member_locations` row once (SQLSTATE 21000 otherwise);
      // a member's later call waits for the statement holding its earlier one, so its calls keep their order
      key: (item) => `${item.companyId}:${item.member}`,
    });
  }

  /**
   * Stores one call's fixes and state for a known member. A call reporting `tracking` runs the
   * transaction that may fire a clock event; any other call is an item of ONE statement
   * ({@link IngestRepository.ingestMembers}) shared with the calls arriving meanwhile, answered once
   * that statement committed (a statement over several calls that fails is run again for each alone,
   * so a call fails only for its own error).
   * @returns counts, and whether a ping is delivered.
   */
  async ingest(input: IngestInput): Promise<IngestResult> {
    const { unique, duplicates: inCall } = dedupeByTs(input.fixes);
    if (input.tracking === undefined || input.source !== 'app') {
      const row = await this.members.submit({
        companyId: input.companyId,
        member: input.memberId,
        fixes: unique,
        source: input.source,
        now: input.now,
        device: input.device,
      });
      this.tasks.enqueue(input.companyId, input.memberId, row);
      return { accepted: row.n, duplicates: unique.length - row.n + inCall, ping: row.ping };
    }
    const attempt = () => this.repo.transaction((db) => this.write(db, input, unique));
    const { result, range, events } = await this.partitions.withPartitions(unique, attempt);
    this.outbox.wake(events);
    if (range) this.tasks.enqueue(input.companyId, input.memberId, { n: result.accepted, lo: range.lo, hi: range.hi });
    return { ...result, duplicates: result.duplicates + inCall };
  }

  /**
   * The group commit of calls without `tracking` since start (for tests and benchmarks): `statements`
   * that committed, the calls they held (`items`; the most in one: `maxItems`), and calls `waiting`
   * for a statement now.
   */
  get groupCommitStats(): GroupCommitStats {
    return this.members.stats;
  }

  /** The transaction of a `pushlocations` call reporting `tracking` (the only path that may fire a clock event). */
  private async write(db: EntityManager, input: IngestInput, fixes: Fix[]) {
    const { companyId, memberId, now } = input;
    const stored = await this.repo.lockRow(db, companyId, memberId, now);

    let accepted = 0;
    let range: { lo: number; hi: number } | null = null;
    if (fixes.length) {
      const ins = await this.repo.insertFixes(db, companyId, memberId, now, fixes);
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
      await this.repo.updateRow(db, companyId, memberId, {
        latest: after.latest,
        anchor: after.anchor,
        source: advanced ? input.source : null,
        receivedAt: advanced ? now : null,
        trackingStatus,
        trackingTs,
        device: input.device ?? {},
        pingRequestedAt: ping ? null : stored.ping_requested_at,
        signalTs: ping ? now : null,
        updatedAt: now,
        late,
      });
    }

    const events: string[] = [];
    if (clock) {
      const newest = fixes.length ? fixes.reduce((a, b) => (b.ts > a.ts ? b : a)) : null;
      const known = after.latest && Math.abs(after.latest.ts - trackingTs) <= CLOCK_LOCATION_MAX_AGE_MS ? after.latest : null;
      const at = newest ?? known;
      events.push(
        ...(await this.clock.record(db, {
          companyId,
          memberId,
          action: clock,
          ts: trackingTs,
          location: at ? { lat: at.lat, lng: at.lng } : undefined,
          now,
        })),
      );
    }
    return { result: { accepted, duplicates: fixes.length - accepted, ping, clock }, range, events };
  }
}
