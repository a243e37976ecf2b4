import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** A place check the geofence rule decided: entry (`in`) or exit (`out`) at `ts` (ms: the entry or exit time). */
export interface PlaceCheck {
  placeId: string;
  kind: 'in' | 'out';
  ts: number;
}

/**
 * Something that reacts to a member's place checks in the SAME transaction the geofence evaluator
 * records them (the alerts lib's `checks_in` / `checks_out` / `checks_any` rules). `db` is that
 * transaction; a listener answers the ids of the outbox events it appended (woken after the commit)
 * and throws to roll the evaluation back (the `fixes` task is then retried).
 */
export interface PlaceCheckListener {
  /** A short name for logs. */
  readonly name: string;
  onPlaceChecks(db: EntityManager, companyId: string, memberId: string, checks: readonly PlaceCheck[]): Promise<string[]>;
}

/**
 * Where place-check listeners register themselves (in `onModuleInit`), so geofencing calls them
 * without importing them: the alerts lib depends on locations, never the reverse.
 */
@Injectable()
export class PlaceCheckListenerRegistry {
  private readonly listeners: PlaceCheckListener[] = [];

  register(listener: PlaceCheckListener): void {
    if (this.listeners.some((l) => l.name === listener.name)) throw new Error(`place check listener ${listener.name} registered twice`);
    this.listeners.push(listener);
  }

  /** Calls every listener in registration order. @returns the outbox ids they appended. */
  async notify(db: EntityManager, companyId: string, memberId: string, checks: readonly PlaceCheck[]): Promise<string[]> {
    if (!checks.length) return [];
    const ids: string[] = [];
    for (const l of this.listeners) ids.push(...(await l.onPlaceChecks(db, companyId, memberId, checks)));
    return ids;
  }
}
