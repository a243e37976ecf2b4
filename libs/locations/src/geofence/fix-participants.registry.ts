import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { NamedRegistry, type FixesTask } from '../fix-consumers.registry';

/** A stored fix as a {@link FixParticipant} receives it: `ts` ms, degrees, `acc` m and `bat` % (null = not reported). */
export interface PassFix {
  ts: number;
  lat: number;
  lng: number;
  acc: number | null;
  bat: number | null;
}

/**
 * What a participant answers for a pass over several members' `fixes` tasks: for each member of the
 * pass (in the order `join` received them) the ts (ms) after which it needs the member's fixes, or
 * null to sit that member out; and what it does with them, in the pass's transaction. `evaluate`
 * receives, in the same order, each member's fixes with `afterTs` < ts ≤ the pass's now, ascending
 * (empty for a member sat out or with none), and answers the ids of the outbox events it appended
 * (woken after the commit).
 */
export interface FixPass {
  afterTs: ReadonlyArray<number | null>;
  evaluate(fixes: ReadonlyArray<readonly PassFix[]>): Promise<string[]>;
}

/**
 * Something evaluated in geofencing's pass over members' new fixes (the alerts lib's zone, battery
 * and still-period rules): in the SAME transaction, under the same locks (the members'
 * `geofence_states` rows, so a member's passes never interleave), over the same read of
 * `location_fixes`. `join` runs first in that transaction with the pass's tasks (one per member) and
 * answers null to sit the whole pass out (no rule for any of them: nothing read or written); a
 * participant that throws rolls the whole pass back (its tasks are retried; every step is idempotent).
 */
export interface FixParticipant {
  /** A short name for logs. */
  readonly name: string;
  join(db: EntityManager, tasks: readonly FixesTask[], now: number): Promise<FixPass | null>;
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
