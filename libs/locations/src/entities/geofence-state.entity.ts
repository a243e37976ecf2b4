import { Entity } from 'typeorm';
import type { FenceState } from '../geofence/geofence-engine';
import { MemberFixState } from './member-fix-state';

/** `geofence_states.state`: the geofence engine's states by fence key. */
export interface StoredGeofenceState {
  fences: Record<string, FenceState>;
}

/**
 * Geofencing's memory per member ({@link MemberFixState}): `state` holds the per-geofence states
 * (inside/outside, pending dwell, open visit) by fence key.
 */
@Entity('geofence_states')
export class GeofenceState extends MemberFixState<StoredGeofenceState> {}
