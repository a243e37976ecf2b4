import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { NamedRegistry, type FixesTask } from '../fix-consumers';

/** A stored fix as a {@link FixParticipant} receives it: `ts` ms, degrees, `acc` m and `bat` % (null = not reported). */
export interface PassFix {
  ts: number;
  lat: number;
  lng: number;
  acc: number | null;
  bat: number | null;
}

/**
 * What a participant answers for one `fixes` task: the ts (ms) after which it needs the member's fixes,
 * and what it does with them, in the pass's transaction. `evaluate` receives the fixes with
 * `afterTs` < ts ≤ the pass's now, ascending (never called with none), and answers the ids of the
 * outbox events it appended (woken after the commit).
 */
export interface FixPass {
  afterTs: number;
  evaluate(fixes: readonly PassFix[]): Promise<string[]>;
}

/**
 * Something evaluated in geofencing's pass over a member's new fixes (the alerts lib's zone, battery
 * and still-period rules): in the SAME transaction, under the same lock (the member's `geofence_states`
 * row, so a member's passes never interleave), over the same read of `location_fixes`. `join` runs
 * first in that transaction and answers null to sit the task out (no rule: nothing read or written);
 * a participant that throws rolls the whole pass back (the task is retried; every step is idempotent).
 */
export interface FixParticipant {
  /** A short name for logs. */
  readonly name: string;
  join(db: EntityManager, task: FixesTask, now: number): Promise<FixPass | null>;
}

/**
 * Where fix participants register themselves (in `onModuleInit`), so geofencing runs them without
 * importing them: the alerts lib depends on locations, never the reverse.
 */
@Injectable()
export class FixParticipantRegistry extends NamedRegistry<FixParticipant> {
  constructor() {
    super('fix participant');
  }

  /** The registered participants, in registration order. */
  all(): readonly FixParticipant[] {
    return this.entries;
  }
}
