import { AlertAction, OutboxService } from '@app/core';
import { evaluateGeofences, FixConsumer, FixConsumerRegistry, FixesTask, GeofenceFix, Zone as FenceZone, ClassifiedFence } from '@app/locations';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DEFAULT_BATTERY_THRESHOLD } from '../alert-actions';
import type { AlertRule } from '../entities/alert-rule.entity';
import { AlertFixState, EvaluationRepository } from './evaluation.repository';
import { RulesCache } from './rules-cache';
import { FiringInput, FiringWriter } from './firing-writer';
import { advanceStill, evaluateBattery } from './fix-rules';
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
 * The `alerts` fix consumer (event-driven `enters_zone`, `leaves_zone`, `enters_danger_zone`,
 * `battery_low`; and the still period `idle` reads). For a `fixes` task:
 * 1. Cheap path: the live rules of those actions that target the member, from the {@link RulesCache}
 *    (one small statement); none → nothing else runs (no lock, no state), so ingestion costs ~nothing
 *    in a company without rules. (Bursts are coalesced before: at most one waiting task per member.)
 * 2. Otherwise, in ONE transaction: lock the member's `alert_member_states` row, read its fixes newer
 *    than the last evaluated (up to now) and, in the same statement, the candidate zones classified
 *    per fix (covered / within the 20 m band / beyond), run the geofence engine over them with the
 *    company's dwell and no gap, battery arming per rule and the still period; write the firings
 *    ({@link FiringWriter}) and the state. Delivery is woken after the commit.
 * Idempotent: a second run finds no fix newer than the first's.
 */
@Injectable()
export class AlertsFixConsumer implements FixConsumer, OnModuleInit {
  readonly name = 'alerts';

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registry: FixConsumerRegistry,
    private readonly repo: EvaluationRepository,
    private readonly writer: FiringWriter,
    private readonly outbox: OutboxService,
    /** absent: a cache of its own (tests that build the consumer by hand) */
    private readonly rulesCache: RulesCache = new RulesCache(repo),
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async onFixes(task: FixesTask): Promise<void> {
    const { rules } = await this.rulesCache.lookup(this.dataSource, task.companyId, task.memberId, FIX_ACTIONS);
    // no rule: nothing else runs. (A task's own range says little: the api coalesces a member's calls
    // into one waiting task, so it evaluates every fix newer than its state, whatever `toTs` says.)
    if (!rules.length) return;
    const published = await this.dataSource.transaction((db) => this.evaluate(db, task, rules, Date.now()));
    this.outbox.wake(published);
  }

  /**
   * Evaluates the member's new fixes up to `now` (ms) in transaction `db` with `rules` (the live rules
   * of {@link FIX_ACTIONS} targeting the member, read just before).
   * @returns the ids of the outbox events appended
   */
  async evaluate(db: EntityManager, task: FixesTask, rules: readonly AlertRule[], now: number): Promise<string[]> {
    const { companyId, memberId } = task;
    const locked = await this.repo.lockState(db, companyId, memberId);
    const company = locked.company;
    if (!company) return [];
    // a fresh or long-unused state starts shortly before this task's fixes, not at the member's whole history
    const afterTs = Math.max(locked.evaluatedTs, task.fromTs - STALE_STATE_MS);
    const state = locked.state;

    const zoneRules = rules.filter((r) => r.action === 'enters_zone' || r.action === 'leaves_zone' || r.action === 'enters_danger_zone');
    const zoneIds = [...new Set(zoneRules.flatMap((r) => (r.zoneId ? [r.zoneId] : [])))];
    const anyDanger = zoneRules.some((r) => r.action === 'enters_danger_zone' && !r.zoneId);
    const { fixes, zones } = await this.repo.loadFixesAndZones(
      db,
      companyId,
      memberId,
      { afterTs, untilTs: now },
      { classify: zoneRules.length > 0, zoneIds, anyDanger, statedIds: Object.keys(state.zones) },
    );
    if (!fixes.length) return [];
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

    // battery: per rule, armed until a low fix fires it
    const battery: AlertFixState['battery'] = {};
    for (const rule of rules.filter((r) => r.action === 'battery_low')) {
      const out = evaluateBattery(state.battery[rule.id]?.low ?? false, fixes, rule.threshold ?? DEFAULT_BATTERY_THRESHOLD, (ts) => inWin(rule, ts));
      battery[rule.id] = { low: out.low };
      for (const f of out.fired) {
        firings.push({ rule, memberId, occurrence: String(f.ts), ts: f.ts, facts: { kind: 'battery', bat: f.bat, ts: f.ts } });
      }
    }

    // idle: the still period, read by the clock
    const still = rules.some((r) => r.action === 'idle') ? advanceStill(state.still, fixes) : null;

    const published = await this.writer.write(db, company, firings);
    await this.repo.saveState(db, companyId, memberId, fixes[fixes.length - 1].ts, { zones: outcome.states, battery, still });
    return published;
  }
}
