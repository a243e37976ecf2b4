import { MsColumn } from '@app/core';
import type { AlertAction } from '../alert-actions';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One firing of an alert rule for a member (CONTRACTS.md "Alerts and zones"): stored once per
 * occurrence — `(company_id, rule_id, member_id, occurrence)` is unique, so two workers evaluating the
 * same occurrence insert one row and only the inserter writes the `alerttriggered` event (in the same
 * transaction; the event's form `id` is this row's `id`). Read by `getalertfirings` and the `alerts`
 * report.
 */
@Entity('alert_firings')
@Index('UQ_alert_firings_occurrence', ['companyId', 'ruleId', 'memberId', 'occurrence'], { unique: true })
@Index('IDX_alert_firings_company_ts', ['companyId', 'ts'])
@Index('IDX_alert_firings_rule_ts', ['companyId', 'ruleId', 'ts'])
export class AlertFiring {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  /** ULID; the event's form `id` */
  @PrimaryColumn({ type: 'varchar', length: 26 })
  id: string;

  @Column({ name: 'rule_id', type: 'varchar', length: 26 })
  ruleId: string;

  @Column({ name: 'member_id', type: 'varchar', length: 26 })
  memberId: string;

  @Column({ type: 'varchar', length: 32 })
  action: AlertAction;

  /**
   * What makes this occurrence one (docs/alerts.md): e.g. the entry time of a zone visit, the check-in
   * row's time, the day of a missed deadline, the start of an idle period.
   */
  @Column({ type: 'varchar', length: 100 })
  occurrence: string;

  @Column({ name: 'place_id', type: 'varchar', length: 26, nullable: true })
  placeId: string | null;

  @Column({ name: 'zone_id', type: 'varchar', length: 26, nullable: true })
  zoneId: string | null;

  @Column({ name: 'check_type', type: 'varchar', length: 3, nullable: true })
  checkType: 'IN' | 'OUT' | null;

  /** the generated sentence ("Luka Novak left zone North depot at 14:05") */
  @Column({ type: 'text' })
  message: string;

  /** ms: when the condition occurred (the fix, check or deadline that fired it) */
  @MsColumn()
  ts: number;

  @MsColumn({ name: 'created_at' })
  createdAt: number;
}
