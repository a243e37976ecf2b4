import { OutboxEventInput, OutboxEventKeys, outboxEvent, OutboxService, zonedDayTimeToMs } from '@app/core';
import { JobsService } from '@app/jobs';
import { PlacesService } from '@app/places';
import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { FixConsumer, FixConsumerRegistry, FixesTask } from '../fix-consumers';
import { evaluateGeofences, Geofence, GeofenceTransition, VISIT_GAP_MS } from './geofence-engine';
import { CheckInTarget, GeofenceRepository } from './geofence.repository';
import { PlaceCheck, PlaceCheckListenerRegistry } from './place-check-listeners';

type PlaceCheckAction = 'placecheckin' | 'placecheckout';

/** Delivered action → webhook configuration key (spec "Events"). */
export const PLACE_CHECK_EVENT_KEYS: OutboxEventKeys<PlaceCheckAction> = { placecheckin: 'place_checked', placecheckout: 'place_checked' };

const PLACE = 'p:';
const JOB = 'j:';

/** A fence key's target: `p:<placeId>` or `j:<jobId>`. */
function targetOf(key: string): CheckInTarget {
  return key.startsWith(PLACE) ? { placeId: key.slice(PLACE.length) } : { jobId: key.slice(JOB.length) };
}

/**
 * Geofencing (CONTRACTS.md, "Places, check-ins, clock"), the `geofence` fix consumer: for a `fixes`
 * task, in ONE transaction, locks the member's `geofence_states` row, reads its fixes newer than the
 * last evaluated (up to now), gathers the candidate fences (live places near the fixes or with a
 * state, the member's jobs of the fixes' days), runs {@link evaluateGeofences}, and writes what it
 * decided: `checkins` rows, `placecheckin`/`placecheckout` events, automatic job checks through
 * {@link JobsService.recordAutoCheck}, the place checks handed to the {@link PlaceCheckListenerRegistry}
 * (alert rules); then the state and `evaluated_ts`. Delivery is woken after the
 * commit. Running a task twice changes nothing (the second run finds no fix newer than the first's).
 */
@Injectable()
export class GeofenceEvaluator implements FixConsumer, OnModuleInit {
  readonly name = 'geofence';

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registry: FixConsumerRegistry,
    private readonly repo: GeofenceRepository,
    private readonly jobs: JobsService,
    private readonly places: PlacesService,
    private readonly outbox: OutboxService,
    /** absent where no one listens (tests that build the evaluator by hand) */
    @Optional() private readonly checkListeners?: PlaceCheckListenerRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async onFixes(task: FixesTask): Promise<void> {
    const published = await this.dataSource.transaction((db) => this.evaluate(db, task.companyId, task.memberId, Date.now()));
    this.outbox.wake(published);
  }

  /**
   * Evaluates the member's new fixes up to `now` (ms) in the transaction `db`.
   * @returns the ids of the outbox events appended (to wake after the commit).
   */
  async evaluate(db: EntityManager, companyId: string, memberId: string, now: number): Promise<string[]> {
    const { evaluatedTs, state, company } = await this.repo.lockState(db, companyId, memberId);
    if (!company) return [];
    const placeIds = Object.keys(state.fences)
      .filter((k) => k.startsWith(PLACE))
      .map((k) => k.slice(PLACE.length));
    const { fixes, places, jobs } = await this.repo.loadEvaluation(
      db,
      companyId,
      memberId,
      { afterTs: evaluatedTs, untilTs: now },
      company,
      placeIds,
    );
    if (!fixes.length) return [];
    const fences: Geofence[] = [
      ...places.map((p) => ({ key: PLACE + p.id, center: { lat: p.lat, lng: p.lng }, radius: p.radius })),
      ...jobs.map((j) => ({
        key: JOB + j.id,
        center: { lat: j.lat, lng: j.lng },
        radius: j.radius,
        from: zonedDayTimeToMs(j.day, 0, company.timezone),
        until: zonedDayTimeToMs(j.day, 24 * 60, company.timezone),
      })),
    ];
    const outcome = evaluateGeofences(state.fences, fences, fixes, { dwellMs: company.dwellSeconds * 1000, gapMs: VISIT_GAP_MS });

    const published = await this.record(db, companyId, memberId, outcome.transitions);
    for (const d of outcome.dropped) await this.repo.closeCheckIn(db, companyId, memberId, targetOf(d.key), d.inTs, d.lastInTs);
    await this.repo.saveState(db, companyId, memberId, fixes[fixes.length - 1].ts, { fences: outcome.states });
    return published;
  }

  /** Writes the transitions in ts order: check-in rows, place events, job checks. */
  private async record(db: EntityManager, companyId: string, memberId: string, transitions: GeofenceTransition[]): Promise<string[]> {
    if (!transitions.length) return [];
    const placeIds = [...new Set(transitions.filter((t) => t.key.startsWith(PLACE)).map((t) => t.key.slice(PLACE.length)))];
    // deleted places too: an event names the place as it was
    const placeViews = new Map((await this.places.placeViews(companyId, placeIds, db)).map((v) => [v.uid, v]));
    const who = placeIds.length ? await this.repo.member(db, companyId, memberId) : undefined;
    const events: OutboxEventInput<PlaceCheckAction>[] = [];
    const published: string[] = [];
    const checks: PlaceCheck[] = [];
    for (const t of transitions) {
      const target = targetOf(t.key);
      if (t.kind === 'in') await this.repo.openCheckIn(db, companyId, memberId, target, t.ts);
      else await this.repo.closeCheckIn(db, companyId, memberId, target, t.inTs!, t.ts);
      if (target.placeId !== undefined) {
        const place = placeViews.get(target.placeId);
        if (!place || !who) continue;
        checks.push({ placeId: target.placeId, kind: t.kind, ts: t.ts });
        const action: PlaceCheckAction = t.kind === 'in' ? 'placecheckin' : 'placecheckout';
        events.push(
          outboxEvent(PLACE_CHECK_EVENT_KEYS, action, {
            companyId,
            formId: `${memberId}-${target.placeId}-${t.ts}`,
            data: { place, who, ts: t.ts },
          }),
        );
      } else {
        published.push(
          ...(await this.jobs.recordAutoCheck(db, companyId, target.jobId, t.kind === 'in' ? { inTs: t.ts } : { outTs: t.ts })),
        );
      }
    }
    published.push(...(await this.outbox.appendMany(db, events)));
    // after the place events: a listener's events (alerts) follow the checks they react to
    if (this.checkListeners) published.push(...(await this.checkListeners.notify(db, companyId, memberId, checks)));
    return published;
  }
}
