import { AppConfig } from '@app/core';
import { Injectable } from '@nestjs/common';
import type { Fix } from '../fix';
import { FixPartitions } from './fix-partitions.service';
import { FixTasksProducer } from './fix-tasks.producer';
import { GroupCommitStats, IngestGroupCommit } from './ingest-group-commit';
import { dedupeByTs, IngestResult } from './ingest-input';
import { IngestRepository } from './ingest.repository';

/**
 * `/osmand` ingestion (Traccar Client; docs/locations-ingest.md, *Group commit*): requests arriving
 * while `OSMAND_GROUP_COMMIT_PASSES` statements run ride together in the next one
 * ({@link IngestRepository.ingestDevices}, up to `OSMAND_GROUP_COMMIT_SIZE`, one request per device),
 * then one Locations `fixes` task per request with stored fixes ({@link FixTasksProducer}).
 */
@Injectable()
export class OsmandGroupCommit {
  /** the group commit of `/osmand` requests ({@link ingestDevice}) */
  private readonly devices: IngestGroupCommit;

  constructor(
    repo: IngestRepository,
    partitions: FixPartitions,
    private readonly tasks: FixTasksProducer,
    config: AppConfig,
  ) {
    this.devices = new IngestGroupCommit((items) => repo.ingestDevices(items), partitions, {
      maxSize: config.OSMAND_GROUP_COMMIT_SIZE,
      maxInFlight: config.OSMAND_GROUP_COMMIT_PASSES,
      // one statement may upsert a member's row once; members.device_id is unique by lower() (JS and
      // PostgreSQL lower-case a few characters differently: such a pair fails its statement with 21000,
      // and the batcher then runs each request alone)
      key: (item) => item.member.toLowerCase(),
    });
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
    const row = await this.devices.submit({ companyId: null, member: deviceId, fixes: unique, source: 'osmand', now });
    if (!row.company_id || !row.member_id) return null;
    this.tasks.enqueue(row.company_id, row.member_id, row);
    return { companyId: row.company_id, memberId: row.member_id, accepted: row.n, duplicates: unique.length - row.n + inCall, ping: false };
  }

  /**
   * The `/osmand` group commit since start (for tests and benchmarks): `statements` that committed,
   * the requests they held (`items`; the most in one: `maxItems`), and requests `waiting` for a
   * statement now.
   */
  get groupCommitStats(): GroupCommitStats {
    return this.devices.stats;
  }
}
