import { OutboxEventInput, OutboxEventKeys, outboxEvent, OutboxService, zonedDayTimeToMs } from '@app/core';
import { JobsService } from '@app/jobs';
import { PlacesService } from '@app/places';
import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { FixConsumer, FixConsumerRegistry, FixesTask, tasksByMember } from '../fix-consumers.registry';
import { evaluateGeofences, Geofence, GeofenceTransition, VISIT_GAP_MS } from './geofence-engine';
import { CheckInTarget, GeofenceRepository, StateSave } from './geofence.repository';
import { PlaceCheck, PlaceCheckListenerRegistry } from './place-check-listeners.registry';
import { FixParticipantRegistry, FixPass } from './fix-participants.registry';
import { readGeofenceEvaluations } from './places-geofence.read';
import { readEventWho } from '../members-who.read';

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
 * Geofencing (CONTRACTS.md, "Places, check-ins, clock"), the `geofence` fix consumer — and the pass
 * its {@link FixParticipantRegistry} participants (alert rules) share. One pass covers one or several
 * members' `fixes` tasks (the worker gathers those arriving while its passes are busy), in ONE
 * transaction with a fixed number of statements whatever the number of members: locks the members'
 * `geofence_states` rows (the pass's only locks of its own), asks each participant how far back it
 * needs each member's fixes, reads each member's fixes ONCE (from the oldest any of them needs, up to
 * now) with the candidate fences (live places near geofencing's new fixes or with a state, the
 * member's jobs of their days), runs {@link evaluateGeofences} over geofencing's new fixes, and writes
 * what it decided: `checkins` rows, `placecheckin`/`placecheckout` events, automatic job checks
 * through {@link JobsService.recordAutoCheck}, the place checks handed to the
 * {@link PlaceCheckListenerRegistry} (alert rules) — these per member that has any, rare next to the
 * fixes; then the states and `evaluated_ts`; then each participant evaluates its share of the same
 * fixes. Delivery is woken once after the commit. Running a task twice changes nothing (the second
 * run finds no fix newer than the first's).
 */
@Injectable()
export class GeofenceEvaluator implements FixConsumer, OnModuleInit {
  readonly name = 'geofence';

  constructor(
    private readonly registry: FixConsumerRegistry,
    private readonly repo: GeofenceRepository,
    private readonly jobs: JobsService,
    private readonly places: PlacesService,
    private readonly outbox: OutboxService,
    /** absent where no one listens (tests that build the evaluator by hand) */
    @Optional() private readonly checkListeners?: PlaceCheckListenerRegistry,
    /** absent where no one participates (tests that build the evaluator by hand) */
    @Optional() private readonly participants?: FixParticipantRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  onFixes(task: FixesTask): Promise<void> {
    return this.onFixesBatch([task]);
  }

  async onFixesBatch(tasks: readonly FixesTask[]): Promise<void> {
    const published = await this.repo.transaction((db) => this.evaluate(db, tasks, Date.now()));
    this.outbox.wake(published);
  }

  /**
   * The pass over the members' new fixes up to `now` (ms) in the transaction `db`: geofencing, then
   * the participants.
   * @returns the ids of the outbox events appended (to wake after the commit).
   */
  async evaluate(db: EntityManager, tasks: readonly FixesTask[], now: number): Promise<string[]> {
    const merged = tasksByMember(tasks);
    if (!merged.length) return [];
    const locked = await this.repo.lockStates(db, merged);
    // an unknown company (deleted since the call) has nothing to evaluate
    const live = merged.flatMap((task, i) => {
      const { company, evaluatedTs, state } = locked[i];
      return company ? [{ task, company, evaluatedTs, state }] : [];
    });
    if (!live.length) return [];
    const passes: FixPass[] = [];
    for (const p of this.participants?.all() ?? []) {
      const pass = await p.join(
        db,
        live.map((m) => m.task),
        now,
      );
      if (pass) passes.push(pass);
    }
    const afterTs = live.map((m, i) => Math.min(m.evaluatedTs, ...passes.map((p) => p.afterTs[i] ?? Infinity)));
    const reads = await readGeofenceEvaluations(
      db,
      live.map((m, i) => ({
        companyId: m.task.companyId,
        memberId: m.task.memberId,
        afterTs: afterTs[i],
        untilTs: now,
        fenceAfterTs: m.evaluatedTs,
        company: m.company,
        placeIds: Object.keys(m.state.fences)
          .filter((k) => k.startsWith(PLACE))
          .map((k) => k.slice(PLACE.length)),
      })),
    );
    const published: string[] = [];
    const saves: StateSave[] = [];
    for (const [i, m] of live.entries()) {
      const { companyId, memberId } = m.task;
      const { fixes, places, jobs } = reads[i];
      const own = afterTs[i] === m.evaluatedTs ? fixes : fixes.filter((f) => f.ts > m.evaluatedTs);
      if (!own.length) continue;
      const fences: Geofence[] = [
        ...places.map((p) => ({ key: PLACE + p.id, center: { lat: p.lat, lng: p.lng }, radius: p.radius })),
        ...jobs.map((j) => ({
          key: JOB + j.id,
          center: { lat: j.lat, lng: j.lng },
          radius: j.radius,
          from: zonedDayTimeToMs(j.day, 0, m.company.timezone),
          until: zonedDayTimeToMs(j.day, 24 * 60, m.company.timezone),
        })),
      ];
      const outcome = evaluateGeofences(m.state.fences, fences, own, { dwellMs: m.company.dwellSeconds * 1000, gapMs: VISIT_GAP_MS });
      published.push(...(await this.record(db, companyId, memberId, outcome.transitions)));
      for (const d of outcome.dropped) await this.repo.closeCheckIn(db, companyId, memberId, targetOf(d.key), d.inTs, d.lastInTs);
      saves.push({ companyId, memberId, evaluatedTs: own[own.length - 1].ts, state: { fences: outcome.states } });
    }
    await this.repo.saveStates(db, saves);
    for (const pass of passes) {
      const theirs = live.map((_, i) => {
        const after = pass.afterTs[i];
        if (after === null) return [];
        return after === afterTs[i] ? reads[i].fixes : reads[i].fixes.filter((f) => f.ts > after);
      });
      if (theirs.some((f) => f.length)) published.push(...(await pass.evaluate(theirs)));
    }
    return published;
  }

  /** Writes the transitions in ts order: check-in rows, place events, job checks. */
  private async record(db: EntityManager, companyId: string, memberId: string, transitions: GeofenceTransition[]): Promise<string[]> {
    if (!transitions.length) return [];
    const placeIds = [...new Set(transitions.filter((t) => t.key.startsWith(PLACE)).map((t) => t.key.slice(PLACE.length)))];
    // deleted places too: an event names the place as it was
    const placeViews = new Map((await this.places.placeViews(companyId, placeIds, db)).map((v) => [v.uid, v]));
    const who = placeIds.length ? await readEventWho(db, companyId, memberId) : undefined;
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
            audience: { members: [memberId] },
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
