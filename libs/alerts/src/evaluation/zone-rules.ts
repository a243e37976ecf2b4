import type { GeofenceTransition } from '@app/locations';
import type { AlertRule } from '../entities/alert-rule.entity';

/** The actions whose rules react to zone entries and exits. */
export type ZoneAction = 'enters_zone' | 'leaves_zone' | 'enters_danger_zone';

/** A zone as the transitions name it. */
export interface ZoneInfo {
  id: string;
  name: string;
  danger: boolean;
}

/**
 * Which zone rules a zone transition fires: an entry fires `enters_zone` rules of that zone and
 * `enters_danger_zone` rules of that zone or, without a zone, of any danger zone; an exit fires
 * `leaves_zone` rules of that zone. Transitions closed by a gap never fire (zones are evaluated
 * without one: a visit ends only by fixes beyond).
 */
export function rulesForZoneTransition(rules: readonly AlertRule[], t: GeofenceTransition, zone: ZoneInfo): AlertRule[] {
  if (t.gap) return [];
  return rules.filter((r) => {
    if (t.kind === 'in') {
      if (r.action === 'enters_zone') return r.zoneId === zone.id;
      if (r.action === 'enters_danger_zone') return r.zoneId ? r.zoneId === zone.id : zone.danger;
      return false;
    }
    return r.action === 'leaves_zone' && r.zoneId === zone.id;
  });
}
