import { Injectable } from '@nestjs/common';
import type { TaskPayload } from '@app/core';

/** The Locations queue's `fixes` task: one member's newly stored fixes (ts range, ms). */
export type FixesTask = TaskPayload<'locations', 'fixes'>;

/**
 * The pass's tasks with one task per member, in (company, member) order: a member's tasks merged
 * (the earliest `fromTs`, the latest `toTs`; the pass evaluates every fix newer than the member's
 * state anyway).
 */
export function tasksByMember(tasks: readonly FixesTask[]): FixesTask[] {
  const byKey = new Map<string, FixesTask>();
  for (const t of tasks) {
    const key = `${t.companyId}\u0000${t.memberId}`;
    const seen = byKey.get(key);
    byKey.set(key, seen ? { ...seen, fromTs: Math.min(seen.fromTs, t.fromTs), toTs: Math.max(seen.toTs, t.toTs) } : t);
  }
  return [...byKey.values()].sort((a, b) =>
    a.companyId === b.companyId ? (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0) : a.companyId < b.companyId ? -1 : 1,
  );
}

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
  /**
   * Several members' `fixes` tasks in one pass (the worker gathers the tasks that arrive while its
   * passes are busy: `MicroBatcher` of `@app/core`); absent = each through {@link onFixes}. Throws to fail
   * them all (the worker then runs each alone, so only a bad one fails).
   */
  onFixesBatch?(tasks: readonly FixesTask[]): Promise<void>;
}

/** A list of uniquely named things registered at start-up (`onModuleInit`), kept in registration order. */
export class NamedRegistry<T extends { readonly name: string }> {
  protected readonly entries: T[] = [];

  /** @throws Error when one of the same name is already registered */
  register(entry: T): void {
    if (this.entries.some((e) => e.name === entry.name)) throw new Error(`${this.kind} ${entry.name} registered twice`);
    this.entries.push(entry);
  }

  constructor(private readonly kind: string) {}
}

/**
 * Where fix consumers register themselves (in `onModuleInit`), so the worker's Locations processor
 * runs them all without knowing each one (no import from the processor to every consumer).
 */
@Injectable()
export class FixConsumerRegistry extends NamedRegistry<FixConsumer> {
  constructor() {
    super('fix consumer');
  }

  /** The registered consumers (of one task when `task` is given), in registration order. */
  all(task?: FixTaskName): readonly FixConsumer[] {
    return task ? this.entries.filter((c) => (c.task ?? 'fixes') === task) : this.entries;
  }
}
