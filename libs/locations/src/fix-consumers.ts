import { Injectable } from '@nestjs/common';
import type { TaskPayload } from '@app/core';

/** The Locations queue's `fixes` task: one member's newly stored fixes (ts range, ms). */
export type FixesTask = TaskPayload<'locations', 'fixes'>;

/** Which Locations task runs a consumer: `fixes` (every call's new fixes) or the debounced `tracks`. */
export type FixTaskName = 'fixes' | 'tracks';

/**
 * A piece of location post-processing the worker runs for each `fixes` task (track building,
 * geofencing). It works from the stored fixes and its own stored state, so running it twice for the
 * same task changes nothing; it throws to have the task retried.
 */
export interface FixConsumer {
  /** A short name for logs and metrics (`tracks`, `geofence`). */
  readonly name: string;
  /** The task that runs it; `fixes` when absent. */
  readonly task?: FixTaskName;
  onFixes(task: FixesTask): Promise<void>;
}

/**
 * Where fix consumers register themselves (in `onModuleInit`), so the worker's Locations processor
 * runs them all without knowing each one (no import from the processor to every consumer).
 */
@Injectable()
export class FixConsumerRegistry {
  private readonly consumers: FixConsumer[] = [];

  register(consumer: FixConsumer): void {
    if (this.consumers.some((c) => c.name === consumer.name)) throw new Error(`fix consumer ${consumer.name} registered twice`);
    this.consumers.push(consumer);
  }

  /** The registered consumers (of one task when `task` is given), in registration order. */
  all(task?: FixTaskName): readonly FixConsumer[] {
    return task ? this.consumers.filter((c) => (c.task ?? 'fixes') === task) : this.consumers;
  }
}
