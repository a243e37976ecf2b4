import { MemberFixState } from '@app/locations';
import { Entity } from 'typeorm';
import type { AlertFixState } from '../alert-member-states.repository';

/**
 * The alerts fix consumer's memory per member ({@link MemberFixState}; docs/alerts-evaluation.md):
 * `state` holds zone visits by zone id, battery arming by rule id and the current still period for
 * `idle` ({@link AlertFixState}). The clock's `idle` evaluation reads it. Created only for members some
 * event-driven rule watches.
 */
@Entity('alert_member_states')
export class AlertMemberState extends MemberFixState<AlertFixState> {}
