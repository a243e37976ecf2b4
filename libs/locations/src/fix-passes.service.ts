import { AppConfig, MicroBatcher } from '@app/core';
import { Injectable } from '@nestjs/common';
import { FixConsumerRegistry, FixesTask } from './fix-consumers.registry';

/**
 * The worker's passes over `fixes` tasks: tasks go through a {@link MicroBatcher} — at most
 * `LOCATIONS_CONCURRENCY` passes at once, the tasks arriving while all are busy gathered (up to
 * `LOCATIONS_BATCH_SIZE`) into the next — and a pass runs every registered `fixes` consumer at once
 * over its tasks (geofencing, whose one pass also runs its participants, the alert rules, in the same
 * transaction over the same read of the fixes). Each consumer keeps its own state in its own
 * transaction; one that throws fails the pass once all have finished, its tasks are then run one by
 * one (the batcher's retry), and those that fail alone fail their task (BullMQ retries it; consumers
 * are idempotent).
 */
@Injectable()
export class FixPasses {
  private readonly passes: MicroBatcher<FixesTask>;

  constructor(
    private readonly registry: FixConsumerRegistry,
    config: AppConfig,
  ) {
    this.passes = new MicroBatcher((tasks) => this.pass(tasks), {
      maxSize: config.LOCATIONS_BATCH_SIZE,
      maxInFlight: config.LOCATIONS_CONCURRENCY,
    });
  }

  /**
   * Runs `task` in a pass.
   * @returns how many consumers ran it, once its pass finished
   * @throws the first consumer's error when the task failed
   */
  async run(task: FixesTask): Promise<number> {
    await this.passes.submit(task);
    return this.consumerCount;
  }

  /**
   * Runs `tasks` (one api window's members) in passes together: they fill passes before any starts.
   * @returns each task's outcome, in order, once every one's pass finished (a rejected one: the first
   * consumer's error of its pass when it failed alone)
   */
  runAll(tasks: readonly FixesTask[]): Promise<PromiseSettledResult<void>[]> {
    return Promise.allSettled(this.passes.submitAll(tasks));
  }

  /** How many `fixes` consumers a pass runs. */
  get consumerCount(): number {
    return this.registry.all('fixes').length;
  }

  /** One pass over `tasks`: every `fixes` consumer at once; any failure fails the pass after all finished. */
  private async pass(tasks: FixesTask[]): Promise<void> {
    const consumers = this.registry.all('fixes');
    // independent (own state, own transaction): run at once, so a pass holds its slot for the
    // slowest consumer's round trips, not their sum
    const outcomes = await Promise.allSettled(
      consumers.map((c) => (c.onFixesBatch ? c.onFixesBatch(tasks) : Promise.all(tasks.map((t) => c.onFixes(t))))),
    );
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
