import { newId, OutboxEventInput, outboxEvent, OutboxService } from '@app/core';
import { PlacesService } from '@app/places';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ALERT_EVENT_KEYS, AlertTriggeredEventData } from '../alert-events';
import { alertPayloadOf } from '../alert-view';
import type { AlertRule } from '../entities/alert-rule.entity';
import { AlertFacts, alertMessage } from './messages';
import { AlertFiringsRepository } from '../alert-firings.repository';
import { EvaluationCompany, RuleTargetsRead } from './members-rule-targets.read';

/**
 * One occurrence of a rule for a member, as an evaluator found it. `occurrence` is the key that makes
 * it one (docs/alerts-evaluation.md); `ts` (ms) when the condition occurred. `facts` become the
 * message (a check's or deadline's `placeName` is filled from the place here).
 */
export interface FiringInput {
  rule: AlertRule;
  memberId: string;
  occurrence: string;
  ts: number;
  facts: AlertFacts;
  placeId?: string;
  zone?: { id: string; name: string };
  checkType?: 'IN' | 'OUT';
}

/**
 * Stores firings and announces them (CONTRACTS.md "Alerts and zones"), in the caller's transaction:
 * `INSERT … ON CONFLICT (company_id, rule_id, member_id, occurrence) DO NOTHING RETURNING`, and only
 * for the rows that came back an `alerttriggered` outbox event (key `alert_triggered`, form `id` =
 * the firing's id) with the spec's payload. So an occurrence evaluated twice — a retried task, two
 * workers at once (the second insert waits for the first's transaction, then does nothing) — is
 * stored and announced once.
 */
@Injectable()
export class FiringWriter {
  constructor(
    private readonly firings: AlertFiringsRepository,
    private readonly targets: RuleTargetsRead,
    private readonly outbox: OutboxService,
    private readonly places: PlacesService,
  ) {}

  /**
   * Writes `firings` of company `company` in transaction `db`.
   * @returns the ids of the outbox events appended (the caller wakes delivery after the commit)
   */
  async write(db: EntityManager, company: EvaluationCompany, firings: readonly FiringInput[]): Promise<string[]> {
    if (!firings.length) return [];
    const companyId = company.id;
    const memberIds = [...new Set(firings.map((f) => f.memberId))];
    const members = new Map((await this.targets.eventMembers(db, companyId, memberIds)).map((m) => [m.uid, m]));
    const placeIds = [...new Set(firings.flatMap((f) => (f.placeId ? [f.placeId] : [])))];
    // deleted places too: a firing names the place as it was
    const places = new Map((await this.places.placeViews(companyId, placeIds, db)).map((p) => [p.uid, p]));

    const rows = firings.flatMap((f) => {
      const member = members.get(f.memberId);
      if (!member) return [];
      const place = f.placeId ? places.get(f.placeId) : undefined;
      const facts = place && (f.facts.kind === 'check' || f.facts.kind === 'deadline') ? { ...f.facts, placeName: place.name } : f.facts;
      return [{ f, id: newId(), member, place, message: alertMessage(member.name, facts, company.timezone) }];
    });
    if (!rows.length) return [];
    const inserted = await this.firings.insertOnce(
      db,
      companyId,
      rows.map((r) => ({
        id: r.id,
        ruleId: r.f.rule.id,
        memberId: r.f.memberId,
        action: r.f.rule.action,
        occurrence: r.f.occurrence,
        placeId: r.f.placeId ?? null,
        zoneId: r.f.zone?.id ?? null,
        checkType: r.f.checkType ?? null,
        message: r.message,
        ts: r.f.ts,
      })),
    );
    const fresh = new Set(inserted);
    const events: OutboxEventInput<'alerttriggered'>[] = rows
      .filter((r) => fresh.has(r.id))
      .sort((a, b) => a.f.ts - b.f.ts)
      .map((r) => {
        const data: AlertTriggeredEventData = {
          alert: alertPayloadOf(r.f.rule, companyId, r.message),
          member: { uid: r.member.uid, username: r.member.username, name: r.member.name },
          ...(r.place ? { place: r.place } : {}),
          ...(r.f.zone ? { zone: { id: r.f.zone.id, name: r.f.zone.name } } : {}),
          ...(r.f.checkType ? { checkType: r.f.checkType } : {}),
          ts: r.f.ts,
        };
        return outboxEvent(ALERT_EVENT_KEYS, 'alerttriggered', { companyId, formId: r.id, data, audience: { members: [r.f.memberId] } });
      });
    return this.outbox.appendMany(db, events);
  }
}
