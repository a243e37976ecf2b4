import { AppConfig, MicroBatcher } from '@app/core';
import { Injectable } from '@nestjs/common';
import type { Fix } from '../fix';
import { FixPartitions } from './fix-partitions.service';
import { FixTasksProducer } from './fix-tasks.producer';
import { dedupeByTs, IngestResult } from './ingest-input';
import { IngestItem } from './ingest-params';
import { IngestRepository, IngestRow } from './ingest.repository';

/** One `/osmand` request in the group commit: its statement item, and its row once its pass ran. */
interface DeviceSlot {
  item: IngestItem;
  row?: IngestRow;
}

/**
 * `/osmand` ingestion (Traccar Client; docs/locations-ingest.md, *Group commit*): requests arriving
 * while `OSMAND_GROUP_COMMIT_PASSES` statements run ride together in the next one
 * ({@link IngestRepository.ingestDevices}, up to `OSMAND_GROUP_COMMIT_SIZE`, one request per device),
 * then one Locations `fixes` task per request with stored fixes ({@link FixTasksProducer}).
 */
@Injectable()
export class OsmandGroupCommit {
  /** the group commit of `/osmand` requests ({@link ingestDevice}) */
  private readonly devices: MicroBatcher<DeviceSlot>;
  /** `/osmand` group commit so far: statements run, requests they held, the most in one */
  private readonly counts = { statements: 0, items: 0, maxItems: 0 };

  constructor(
    private readonly repo: IngestRepository,
    private readonly partitions: FixPartitions,
    private readonly tasks: FixTasksProducer,
    config: AppConfig,
  ) {
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
    this.tasks.enqueue(row.company_id, row.member_id, row);
    return { companyId: row.company_id, memberId: row.member_id, accepted: row.n, duplicates: unique.length - row.n + inCall, ping: false };
  }

  /**
   * One group commit pass of `/osmand` requests: ONE statement for all (the months of their fixes'
   * partitions made first), each request's row put on its slot.
   */
  private async devicePass(slots: DeviceSlot[]): Promise<void> {
    const items = slots.map((s) => s.item);
    const fixes = items.length === 1 ? items[0].fixes : items.flatMap((i) => i.fixes);
    const rows = await this.partitions.withPartitions(fixes, () => this.repo.ingestDevices(items));
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
}
