import { AlertAction } from '@app/core';
import {
  ClassifiedFence,
  evaluateGeofences,
  FixesTask,
  FixParticipant,
  FixParticipantRegistry,
  FixPass,
  GeofenceFix,
  Zone as FenceZone,
} from '@app/locations';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { EntityManager } from 'typeorm';
import { DEFAULT_BATTERY_THRESHOLD } from '../alert-actions';
import type { AlertRule } from '../entities/alert-rule.entity';
import { AlertFixState, EvaluationRepository } from './evaluation.repository';
import { RulesCache, StoredAlertState } from './rules-cache';
import { FiringInput, FiringWriter } from './firing-writer';
import { advanceStill, evaluateBattery, RuleFix } from './fix-rules';
import { rulesForZoneTransition } from './zone-rules';
import { inWindow } from './window';

/** The rules that need a member's fixes: zones, battery, and `idle` (its still period is kept here). */
export const FIX_ACTIONS: readonly AlertAction[] = ['enters_zone', 'leaves_zone', 'enters_danger_zone', 'battery_low', 'idle'];

/** m: fixes less accurate than this don't count for zones. */
export const ZONE_MAX_ACC_M = 100;

/**
 * ms: how far before a task's first fix a fresh (or long-unused) state starts: far enough that tasks
 * of one upload running out of order still see each other's fixes, not the member's whole history.
 */
export const STALE_STATE_MS = 3_600_000;

const CLASS: Record<string, FenceZone> = { i: 'in', e: 'edge', o: 'out' };

/**
 * The `alerts` fix participant (event-driven `enters_zone`, `leaves_zone`, `enters_danger_zone`,
 * `battery_low`; and the still period `idle` reads), run in geofencing's pass over a member's new
 * fixes ({@link FixParticipant}: the same transaction, under the same lock, over the same read of
 * the fixes):
 * 1. `join`: the live rules of those actions that target the member, from the {@link RulesCache}, with
 *    the member's state and the company in the same small statement; no rule → it sits the task out
 *    (nothing else read or written).
 * 2. `evaluate`: the candidate zones classified per fix (covered / within the 20 m band / beyond) in
 *    one statement, the geofence engine over them with the company's dwell and no gap, battery
 *    arming per rule and the still period; the firings ({@link FiringWriter}); the state —
 *    `evaluated_ts`, and the state itself only when it changed.
 * Idempotent: a second pass finds no fix newer than the first's.
 */
@Injectable()
export class AlertsFixConsumer implements FixParticipant, OnModuleInit {
  readonly name = 'alerts';

  constructor(
    private readonly registry: FixParticipantRegistry,
    private readonly repo: EvaluationRepository,
    private readonly writer: FiringWriter,
    /** absent: a cache of its own (tests that build the participant by hand) */
    private readonly rulesCache: RulesCache = new RulesCache(repo),
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async join(db: EntityManager, task: FixesTask): Promise<FixPass | null> {
    const { rules, stored } = await this.rulesCache.lookup(db, task.companyId, task.memberId, FIX_ACTIONS, true);
    // no rule: nothing else runs. (A task's own range says little: the api coalesces a member's calls
    // into one waiting task, so the pass evaluates every fix newer than the state, whatever `toTs` says.)
    if (!rules.length || !stored) return null;
    // a fresh or long-unused state starts shortly before this task's fixes, not at the member's whole history
    const afterTs = Math.max(stored.evaluatedTs, task.fromTs - STALE_STATE_MS);
    return { afterTs, evaluate: (fixes) => this.evaluate(db, task, rules, stored, fixes) };
  }

  /**
   * Evaluates `fixes` (the member's fixes newer than its state, ascending, not empty) in transaction
   * `db` with `rules` (the live rules of {@link FIX_ACTIONS} targeting the member) from `stored`.
   * @returns the ids of the outbox events appended
   */
  async evaluate(
    db: EntityManager,
    task: FixesTask,
    rules: readonly AlertRule[],
    stored: StoredAlertState,
    fixes: readonly RuleFix[],
  ): Promise<string[]> {
    const { companyId, memberId } = task;
    const { company, state } = stored;
    const inWin = (rule: { window: Parameters<typeof inWindow>[0] }, ts: number) => inWindow(rule.window, ts, company.timezone);
    const firings: FiringInput[] = [];

    // zones: the geofence rule over the classification PostGIS made
    const zoneRules = rules.filter((r) => r.action === 'enters_zone' || r.action === 'leaves_zone' || r.action === 'enters_danger_zone');
    const zones = zoneRules.length
      ? await this.repo.classifyZones(db, companyId, fixes, {
          zoneIds: [...new Set(zoneRules.flatMap((r) => (r.zoneId ? [r.zoneId] : [])))],
          anyDanger: zoneRules.some((r) => r.action === 'enters_danger_zone' && !r.zoneId),
          statedIds: Object.keys(state.zones),
        })
      : [];
    const index = new Map(fixes.map((f, i) => [f.ts, i]));
    const fences: ClassifiedFence[] = zones.map((z) => ({
      key: z.id,
      maxAcc: ZONE_MAX_ACC_M,
      classify: (fix: GeofenceFix) => CLASS[z.classes[index.get(fix.ts)!]] ?? 'out',
    }));
    const outcome = evaluateGeofences(state.zones, fences, fixes, { dwellMs: company.dwellSeconds * 1000, gapMs: Infinity });
    const byId = new Map(zones.map((z) => [z.id, z]));
    for (const t of outcome.transitions) {
      const zone = byId.get(t.key)!;
      for (const rule of rulesForZoneTransition(zoneRules, t, zone)) {
        if (!inWin(rule, t.ts)) continue;
        firings.push({
          rule,
          memberId,
          occurrence: `${zone.id}:${t.kind}:${t.ts}`,
          ts: t.ts,
          facts: { kind: 'zone', move: t.kind, danger: rule.action === 'enters_danger_zone', zoneName: zone.name, ts: t.ts },
          zone: { id: zone.id, name: zone.name },
        });
      }
    }

    // battery: per rule, armed until a low fix fires it; only the fired (disarmed) ones are stored
    const battery: AlertFixState['battery'] = {};
    for (const rule of rules.filter((r) => r.action === 'battery_low')) {
      const out = evaluateBattery(state.battery[rule.id]?.low ?? false, fixes, rule.threshold ?? DEFAULT_BATTERY_THRESHOLD, (ts) => inWin(rule, ts));
      if (out.low) battery[rule.id] = { low: true };
      for (const f of out.fired) {
        firings.push({ rule, memberId, occurrence: String(f.ts), ts: f.ts, facts: { kind: 'battery', bat: f.bat, ts: f.ts } });
      }
    }

    // idle: the still period, read by the clock
    const still = rules.some((r) => r.action === 'idle') ? advanceStill(state.still, fixes) : null;

    const published = await this.writer.write(db, company, firings);
    const next: AlertFixState = { zones: outcome.states, battery, still };
    // an unchanged state is not rewritten (most passes only move evaluated_ts)
    const changed = !stored.exists || !isDeepStrictEqual(next, withoutArmed(state));
    await this.repo.saveState(db, companyId, memberId, fixes[fixes.length - 1].ts, changed ? next : null);
    return published;
  }
}

/** `state` with the armed battery rules left out (states written before only fired ones were kept list them as `{low: false}`). */
function withoutArmed(state: AlertFixState): AlertFixState {
  const battery: AlertFixState['battery'] = {};
  for (const [id, b] of Object.entries(state.battery)) if (b.low) battery[id] = b;
  return { ...state, battery };
}
