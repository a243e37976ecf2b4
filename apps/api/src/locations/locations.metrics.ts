import { GroupCommitStats, LocateSnapshots, OsmandGroupCommit, PushLocationsService } from '@app/locations';
import type { Registry } from 'prom-client';
import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsRegistry } from '../metrics/metrics.registry';

/**
 * This api process's own locations figures on `GET /metrics`, read from the services when scraped:
 * - `fieldwork_locate_snapshot_reads_total{kind}`: refreshes of `locate`'s company snapshots
 *   (docs/locate.md, *The snapshot*), `changed` (only the rows changed since) or `whole` (the company
 *   read again: first call, a moved count, past `LOCATE_SNAPSHOT_MAX_AGE_MS`); many whole reads mean
 *   `LOCATE_SNAPSHOT_MEMBERS` is too small or rows are deleted behind the snapshots;
 * - `fieldwork_locate_snapshot_members`: members held in this process's snapshots;
 * - `fieldwork_osmand_group_commit_statements_total` / `_requests_total`: ingest statements of the
 *   `/osmand` group commit (docs/locations-ingest.md) and the requests they held (their ratio is the
 *   requests per statement), and `fieldwork_osmand_group_commit_waiting`: requests waiting for one now;
 * - `fieldwork_push_group_commit_statements_total` / `_calls_total` / `fieldwork_push_group_commit_waiting`:
 *   the same for `pushlocations` calls without `tracking`.
 */
@Injectable()
export class LocationsMetrics {
  constructor(metrics: MetricsRegistry, snapshots: LocateSnapshots, ingest: OsmandGroupCommit, push: PushLocationsService) {
    const registers = [metrics.registry];
    new Counter({
      name: 'fieldwork_locate_snapshot_reads_total',
      help: "Refreshes of locate's company snapshots in this process, by kind: changed rows only, or the company read whole",
      labelNames: ['kind'] as const,
      registers,
      collect() {
        const { refreshes, fullReads } = snapshots.stats;
        this.reset();
        this.inc({ kind: 'changed' }, refreshes - fullReads);
        this.inc({ kind: 'whole' }, fullReads);
      },
    });
    new Gauge({
      name: 'fieldwork_locate_snapshot_members',
      help: "Members held in this process's locate snapshots",
      registers,
      collect() {
        this.set(snapshots.heldMembers);
      },
    });
    groupCommitMetrics(registers, 'osmand', 'requests', '/osmand requests', () => ingest.groupCommitStats);
    groupCommitMetrics(registers, 'push', 'calls', 'pushlocations calls', () => push.groupCommitStats);
  }
}

/**
 * A group commit's three figures, read when scraped: `fieldwork_<name>_group_commit_statements_total`,
 * `fieldwork_<name>_group_commit_<unit>_total` (what the statements held) and
 * `fieldwork_<name>_group_commit_waiting`.
 */
function groupCommitMetrics(registers: Registry[], name: string, unit: string, what: string, stats: () => GroupCommitStats): void {
  new Counter({
    name: `fieldwork_${name}_group_commit_statements_total`,
    help: `Ingest statements of the ${what.split(' ')[0]} group commit committed by this process`,
    registers,
    collect() {
      this.reset();
      this.inc(stats().statements);
    },
  });
  new Counter({
    name: `fieldwork_${name}_group_commit_${unit}_total`,
    help: `${what} held by this process's group commit statements`,
    registers,
    collect() {
      this.reset();
      this.inc(stats().items);
    },
  });
  new Gauge({
    name: `fieldwork_${name}_group_commit_waiting`,
    help: `${what} of this process waiting for a group commit statement`,
    registers,
    collect() {
      this.set(stats().waiting);
    },
  });
}
