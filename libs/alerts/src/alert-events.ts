import type { OutboxEventKeys } from '@app/core';
import type { EventMember } from '@app/locations';
import type { PlaceView } from '@app/places';
import type { AlertAction } from './alert-actions';

/**
 * The alerts lib's outbox event `alerttriggered` (spec "Events", "the service events"; CONTRACTS.md
 * "Alerts and zones") and its payload, declared on core's `OutboxEvents` map by module augmentation.
 */

/**
 * An alert rule's parameters (`alert.config`, CONTRACTS.md "Alerts and zones"): targets,
 * place or zone, interval, threshold, window (docs/alerts.md).
 */
export interface AlertRuleConfig {
  /** member uids; with `teams` absent and this absent, every worker of the company */
  members?: string[];
  /** team ids */
  teams?: number[];
  placeUid?: string;
  zoneId?: string;
  /** ms */
  interval?: number;
  /** battery %, default 15 */
  threshold?: number;
  /** when the rule is armed, in the company time zone: start and end HHMM */
  window?: { days: number[]; start: number; end: number };
}

/** `alerttriggered` data (spec "Events", "the service events"). */
export interface AlertTriggeredEventData {
  alert: {
    /** the rule's id */
    id: string;
    config: AlertRuleConfig;
    companyUid: string;
    title: string;
    description: string;
    /** generated text */
    message: string;
    action: AlertAction;
    /** our number for `action` (docs/alerts.md) */
    actionCode: number;
    /** our number (docs/alerts.md) */
    type: number;
    /** ms, when configured */
    interval?: number;
    /** ms: the rule's creation time */
    tsCreated: number;
  };
  member: EventMember;
  /** the place as the places lib's view answers it */
  place?: PlaceView;
  zone?: { id: string; name: string };
  checkType?: 'IN' | 'OUT';
  /**
   * ms: when the condition occurred — the firing's `ts`, as getalertfirings answers it (our
   * extension, docs/decisions.md; absent on events written before it, whose connector items take the
   * event's stamp instead)
   */
  ts: number;
}

declare module '@app/core' {
  interface OutboxEvents {
    /** form `id` = the firing's id */
    alerttriggered: { key: 'alert_triggered'; id: string; data: AlertTriggeredEventData };
  }
}

/** Delivered action → webhook configuration key (spec "Events"). */
export const ALERT_EVENT_KEYS: OutboxEventKeys<'alerttriggered'> = { alerttriggered: 'alert_triggered' };
