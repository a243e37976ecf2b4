import { AppConfig, QueueName, TaskProducer } from '@app/core';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { FixesTask } from '../fix-consumers.registry';
import { TrailingDebounce } from './trailing-debounce';

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

/** A debounced `build` task as sent to the Tracks queue. */
interface TrackBuildTask {
  name: 'build';
  data: FixesTask;
  opts: { delay: number; deduplication: { id: string; keepLastIfActive: boolean } };
}

/**
 * The api's producer of the tasks that follow stored fixes: a Locations `fixes` task per call with
 * newly stored fixes, and the member's debounced Tracks `build` task — both sent after commit, in
 * bulk, never awaited by the call.
 */
@Injectable()
export class FixTasksProducer implements OnApplicationShutdown {
  private readonly logger = new Logger('Ingest');
  /** fixes tasks of calls committed since the last flush */
  private readonly pending: FixesTask[] = [];
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
   * After commit: one Locations `fixes` task for the call's newly stored fixes (none when nothing was
   * accepted), coalesced per member (BullMQ deduplication with `keepLastIfActive`: at most one task
   * waiting and one running per member; the consumers read everything newer than their state). Not awaited: tasks are sent to Redis in one `addBulk` per {@link ENQUEUE_WINDOW_MS}
   * (or per {@link ENQUEUE_MAX_BATCH} tasks), since a BullMQ add per call was the api's largest CPU
   * cost under load. A Redis failure is logged, never failing the call (its fixes are stored).
   */
  enqueue(companyId: string, memberId: string, row: { n: number; lo: number | null; hi: number | null }): void {
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
}
