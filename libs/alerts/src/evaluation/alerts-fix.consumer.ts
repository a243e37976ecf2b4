import type { AlertAction } from '../alert-actions';
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
import { AlertFixState, AlertMemberStatesRepository, AlertStateSave } from './alert-member-states.repository';
import { FiringInput, FiringWriter } from './firing-writer.service';
import type { EvaluationCompany } from './members-rule-targets.read';
import { RulesCache, StoredAlertState } from './rules-cache.service';
import { ClassifiedZone, ZoneClassificationRead } from './zones-classification.read';
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
 * `battery_low`; and the still period `idle` reads), run in geofencing's pass over members' new
 * fixes ({@link FixParticipant}: the same transaction, under the same locks, over the same read of
 * the fixes), with a fixed number of statements per pass whatever its number of members:
 * 1. `join`: for each member, the live rules of those actions that target it, from the
 *    {@link RulesCache}, with its state and the company, in one small statement; a member without a
 *    rule sits the pass out (nothing else read or written for it; nothing at all when none has one).
 * 2. `evaluate`: the candidate zones classified per fix (covered / within the 20 m band / beyond) in
 *    one statement for every member, then per member in memory ({@link evaluateMember}) the geofence
 *    engine over them with the company's dwell and no gap, battery arming per rule and the still
 *    period; the firings of each company ({@link FiringWriter}); the states in one statement —
 *    `evaluated_ts`, and the state itself only when it changed.
 * Idempotent: a second pass finds no fix newer than the first's.
 */
@Injectable()
export class AlertsFixConsumer implements FixParticipant, OnModuleInit {
  readonly name = 'alerts';

  constructor(
    private readonly registry: FixParticipantRegistry,
    private readonly zones: ZoneClassificationRead,
    private readonly states: AlertMemberStatesRepository,
    private readonly writer: FiringWriter,
    private readonly rulesCache: RulesCache,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async join(db: EntityManager, tasks: readonly FixesTask[]): Promise<FixPass | null> {
    const looked = await this.rulesCache.lookupMany(db, tasks, FIX_ACTIONS, true);
    // a task's own range says little: the api coalesces a member's calls into one waiting task, so
    // the pass evaluates every fix newer than the state, whatever `toTs` says — but a fresh or
    // long-unused state starts shortly before this task's fixes, not at the member's whole history
    const afterTs = looked.map(({ rules, stored }, i) =>
      rules.length && stored ? Math.max(stored.evaluatedTs, tasks[i].fromTs - STALE_STATE_MS) : null,
    );
    // no rule for any member: nothing else runs
    if (afterTs.every((a) => a === null)) return null;
    return {
      afterTs,
      evaluate: (fixes) =>
        this.evaluate(
          db,
          tasks.flatMap((task, i) => {
            const { rules, stored } = looked[i];
            return afterTs[i] !== null && fixes[i].length ? [{ task, rules, stored: stored!, fixes: fixes[i] }] : [];
          }),
        ),
    };
  }

  /**
   * Evaluates, in transaction `db`, each member's `fixes` (newer than its state, ascending, not
   * empty) with its `rules` (the live rules of {@link FIX_ACTIONS} targeting it) from its `stored`
   * state: the zone classification of every member in one statement, the rules in memory, the
   * firings of each company in one write, the states in one statement.
   * @returns the ids of the outbox events appended
   */
  async evaluate(db: EntityManager, members: readonly MemberEvaluation[]): Promise<string[]> {
    if (!members.length) return [];
    const zoneRules = members.map(({ rules }) =>
      rules.filter((r) => r.action === 'enters_zone' || r.action === 'leaves_zone' || r.action === 'enters_danger_zone'),
    );
    const watching = members.flatMap((m, i) => (zoneRules[i].length ? [i] : []));
    const classified = await this.zones.classifyZones(
      db,
      watching.map((i) => ({
        companyId: members[i].task.companyId,
        fixes: members[i].fixes,
        zoneIds: [...new Set(zoneRules[i].flatMap((r) => (r.zoneId ? [r.zoneId] : [])))],
        anyDanger: zoneRules[i].some((r) => r.action === 'enters_danger_zone' && !r.zoneId),
        statedIds: Object.keys(members[i].stored.state.zones),
      })),
    );
    const zonesOf = new Map(watching.map((i, n) => [i, classified[n]]));

    const firingsByCompany = new Map<string, { company: EvaluationCompany; firings: FiringInput[] }>();
    const saves: AlertStateSave[] = [];
    for (const [i, m] of members.entries()) {
      const { firings, next, changed } = evaluateMember(m, zoneRules[i], zonesOf.get(i) ?? []);
      const { company } = m.stored;
      if (firings.length) {
        const group = firingsByCompany.get(company.id) ?? { company, firings: [] };
        group.firings.push(...firings);
        firingsByCompany.set(company.id, group);
      }
      const { companyId, memberId } = m.task;
      saves.push({ companyId, memberId, evaluatedTs: m.fixes[m.fixes.length - 1].ts, state: changed ? next : null });
    }
    const published: string[] = [];
    for (const { company, firings } of firingsByCompany.values()) published.push(...(await this.writer.write(db, company, firings)));
    await this.states.saveStates(db, saves);
    return published;
  }
}

/** One member's share of a pass: its task, rules, stored state and fixes (newer than the state, ascending, not empty). */
export interface MemberEvaluation {
  task: FixesTask;
  rules: readonly AlertRule[];
  stored: StoredAlertState;
  fixes: readonly RuleFix[];
}

/**
 * One member's rules over its fixes, in memory: the geofence engine over its zones' classification
 * (`zones`, for `zoneRules`) with the company's dwell and no gap, battery arming per rule, the still
 * period. @returns the firings, the next state, and whether it differs from the stored one
 */
export function evaluateMember(
  m: MemberEvaluation,
  zoneRules: readonly AlertRule[],
  zones: readonly ClassifiedZone[],
): { firings: FiringInput[]; next: AlertFixState; changed: boolean } {
  const { memberId } = m.task;
  const { company, state } = m.stored;
  const { rules, fixes } = m;
  const inWin = (rule: { window: Parameters<typeof inWindow>[0] }, ts: number) => inWindow(rule.window, ts, company.timezone);
  const firings: FiringInput[] = [];

  // zones: the geofence rule over the classification PostGIS made
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

  const next: AlertFixState = { zones: outcome.states, battery, still };
  // an unchanged state is not rewritten (most passes only move evaluated_ts)
  const changed = !m.stored.exists || !isDeepStrictEqual(next, withoutArmed(state));
  return { firings, next, changed };
}

/** `state` with the armed battery rules left out (states written before only fired ones were kept list them as `{low: false}`). */
function withoutArmed(state: AlertFixState): AlertFixState {
  const battery: AlertFixState['battery'] = {};
  for (const [id, b] of Object.entries(state.battery)) if (b.low) battery[id] = b;
  return { ...state, battery };
}
