import { MicroBatcher } from '@app/core';
import { FixPartitions } from './fix-partitions.service';
import { IngestItem } from './ingest-params';
import { IngestRow } from './ingest.repository';

/** One request in a group commit: its statement item, and its row once its pass ran. */
interface Slot {
  item: IngestItem;
  row?: IngestRow;
}

/** A group commit's figures since start: statements that committed, the requests they held (the most in one), requests waiting now. */
export interface GroupCommitStats {
  statements: number;
  items: number;
  maxItems: number;
  waiting: number;
}

/**
 * The group commit of ingest requests (docs/locations-ingest.md, *Group commit*), shared by
 * `pushlocations` ({@link PushLocationsService}) and `/osmand` ({@link OsmandGroupCommit}): requests
 * arriving while `maxInFlight` statements run ride together in the next one (up to `maxSize`, one
 * request per `key`), each answered with its row once that statement committed. The months of the
 * statement's fixes' partitions are made first when missing ({@link FixPartitions}). A statement over
 * several requests that fails is run again for each alone ({@link MicroBatcher}).
 */
export class IngestGroupCommit {
  private readonly batcher: MicroBatcher<Slot>;
  private readonly counts = { statements: 0, items: 0, maxItems: 0 };

  /**
   * @param statement the ingest statement over items, answering one row per item in item order
   * @param key a request's key: one per statement, and a key's requests in order
   */
  constructor(
    private readonly statement: (items: readonly IngestItem[]) => Promise<IngestRow[]>,
    private readonly partitions: FixPartitions,
    opts: { maxSize: number; maxInFlight: number; key: (item: IngestItem) => string },
  ) {
    this.batcher = new MicroBatcher((slots) => this.pass(slots), {
      maxSize: opts.maxSize,
      maxInFlight: opts.maxInFlight,
      key: (slot) => opts.key(slot.item),
    });
  }

  /** Runs `item` in the next statement with a free slot. @returns its row, once that statement committed */
  async submit(item: IngestItem): Promise<IngestRow> {
    const slot: Slot = { item };
    await this.batcher.submit(slot);
    return slot.row!;
  }

  /** The figures since start (for metrics, tests and benchmarks). */
  get stats(): GroupCommitStats {
    return { ...this.counts, waiting: this.batcher.pending };
  }

  /** One pass: ONE statement for all its requests, each request's row put on its slot. */
  private async pass(slots: Slot[]): Promise<void> {
    const items = slots.map((s) => s.item);
    const fixes = items.length === 1 ? items[0].fixes : items.flatMap((i) => i.fixes);
    const rows = await this.partitions.withPartitions(fixes, () => this.statement(items));
    slots.forEach((s, k) => (s.row = rows[k]));
    this.counts.statements++;
    this.counts.items += slots.length;
    this.counts.maxItems = Math.max(this.counts.maxItems, slots.length);
  }
}
