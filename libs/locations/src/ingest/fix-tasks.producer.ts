import { AppConfig, QueueName, TaskProducer } from '@app/core';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { FixesTask, tasksByMember } from '../fix-consumers.registry';
import { TrailingDebounce } from './trailing-debounce';

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

/** A debounced `build` task as sent to the Tracks queue. */
interface TrackBuildTask {
  name: 'build';
  data: FixesTask;
  opts: { delay: number; deduplication: { id: string; keepLastIfActive: boolean } };
}

/**
 * The api's producer of the tasks that follow stored fixes: the members whose fixes the process
 * stored within `LOCATIONS_TASK_WINDOW_MS` as ONE Locations `batch` task, and each member's debounced
 * Tracks `build` task — both sent after commit, never awaited by the call.
 */
@Injectable()
export class FixTasksProducer implements OnApplicationShutdown {
  private readonly logger = new Logger('Ingest');
  /** the members of calls committed since the last flush, one entry per call */
  private pending: FixesTask[] = [];
  /** distinct members in {@link pending} */
  private readonly pendingMembers = new Set<string>();
  private flushTimer?: NodeJS.Timeout;
  /** the debounced track builds: one per member and bucket per {@link trackBuildWindowMs} (a trailing one for the calls in between) */
  private readonly builds: TrailingDebounce<TrackBuildTask>;

  constructor(
    private readonly producer: TaskProducer,
    private readonly config: AppConfig,
  ) {
    this.builds = new TrailingDebounce(trackBuildWindowMs(config.TRACK_BUILD_DELAY_MS), (builds) =>
      this.producer
        .addBulk(QueueName.Tracks, builds)
        .catch((err: Error) => this.logger.warn(`could not enqueue ${builds.length} track builds: ${err.message}`)),
    );
  }

  /**
   * After commit: the call's newly stored fixes (none accepted: nothing) join the window's Locations
   * `batch` task — one task per `LOCATIONS_TASK_WINDOW_MS` (or per `LOCATIONS_TASK_MAX_MEMBERS`
   * members) holding each member once with the range of its calls (the consumers read everything
   * newer than their state anyway), so the worker evaluates a window's members in one pass instead of
   * one pass and three BullMQ round trips per call (docs/locations-ingest.md, *Fixes task*). Not
   * awaited; a Redis failure is logged, never failing the call (its fixes are stored: the member's
   * next task covers them).
   */
  enqueue(companyId: string, memberId: string, row: { n: number; lo: number | null; hi: number | null }): void {
    if (!row.n || row.lo === null || row.hi === null) return;
    this.pending.push({ companyId, memberId, fromTs: row.lo, toTs: row.hi });
    this.pendingMembers.add(`${companyId}\u0000${memberId}`);
    if (this.pendingMembers.size >= this.config.LOCATIONS_TASK_MAX_MEMBERS) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), this.config.LOCATIONS_TASK_WINDOW_MS);
  }

  /** Sends the window's members as one `batch` task, and their debounced track builds. */
  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const calls = this.pending;
    this.pending = [];
    this.pendingMembers.clear();
    if (!calls.length) return;
    const members = tasksByMember(calls);
    this.builds.offer(
      members.map((data) => {
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
    // no deduplication: a window's task is its own members; a member in two windows is evaluated by
    // whichever pass runs first, the other finding nothing newer than the state (passes lock the
    // member's state rows, so two never evaluate the same fixes)
    this.producer
      .add(QueueName.Locations, 'batch', { members })
      .catch((err: Error) => this.logger.warn(`could not enqueue the fixes of ${members.length} members: ${err.message}`));
  }

  /** Sends what is pending (and the held track builds) when the app stops. */
  onApplicationShutdown(): void {
    this.flush();
    this.builds.drain();
  }
}
