import { MsColumn } from '@app/core';
import type { AlertAction } from '../alert-actions';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A rule's daily window in the company time zone: ISO weekdays (1 = Monday … 7), start and end HHMM. */
export interface AlertWindow {
  days: number[];
  start: number;
  end: number;
}

/**
 * An alert rule (CONTRACTS.md "Alerts and zones", our extension; the spec says alerts are configured,
 * not how): an action of the spec's thirteen (`ALERT_ACTIONS`), its targets, the place or zone it
 * watches, its parameters, and whether it is active. Soft-deleted so firings and the `alerts` report
 * still name it.
 */
@Entity('alert_rules')
@Index('IDX_alert_rules_id', ['id'])
@Index('IDX_alert_rules_company', ['companyId'])
export class AlertRule {
  /** ULID */
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_alert_rules' })
  id: string;

  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_alert_rules' })
  companyId: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  title: string;

  @Column({ type: 'varchar', length: 2000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 32 })
  action: AlertAction;

  /** Target member ids; with `teams` also empty, every worker of the company. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  members: string[];

  /** Target team ids. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  teams: number[];

  @Column({ name: 'place_id', type: 'varchar', length: 26, nullable: true })
  placeId: string | null;

  @Column({ name: 'zone_id', type: 'varchar', length: 26, nullable: true })
  zoneId: string | null;

  /** ms (`idle`, `no_connection_to_device`) */
  @MsColumn({ nullable: true })
  interval: number | null;

  /** battery % (`battery_low`) */
  @Column({ type: 'integer', nullable: true })
  threshold: number | null;

  @Column({ type: 'jsonb', nullable: true })
  window: AlertWindow | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @MsColumn({ name: 'created_at' })
  createdAt: number;

  @MsColumn({ name: 'updated_at', nullable: true })
  updatedAt: number | null;

  /** ms of the soft delete (`deletealert`); null = live. */
  @MsColumn({ name: 'deleted_at', nullable: true })
  deletedAt: number | null;
}
