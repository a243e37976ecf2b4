import { AuthContext } from '@app/core';
import { Member } from './entities/member.entity';

/** A member as getaccounts, createaccount and editaccount answer it (never a secret). */
export interface MemberView {
  uid: string;
  username: string;
  name: string;
  phone: string;
  email: string;
  role: string;
  teams: number[];
  /** Last known position; null until the member's device reports one. ts ms, accuracy m. */
  location: { lat: number; lng: number; ts: number; accuracy: number | null } | null;
  /**
   * `moving`: `moving` | `stopped` | `offline` | "" (core `movingState`); `tracking_status`: the last
   * tracking state the device reported.
   */
  states: { moving: string; tracking_status: boolean };
  status_label: string;
  color: string;
  active_status: 'active' | 'deactivated';
  is_company_account: boolean;
  vehicle_capacity: number | null;
  travel_mode: string;
  working_hours: Member['workingHours'];
  working_hours_overrides: Member['workingHoursOverrides'];
  ignore_working_hours_until_ts: number;
  route_start_lat: number | null;
  route_start_lng: number | null;
  route_end_lat: number | null;
  route_end_lng: number | null;
  route_start_time: number | null;
  unit_distance: string;
  unit_time: string;
  unit_date: string;
  timezone: string;
  language: string;
  skills: string[];
  expertise: string;
  radius: number;
  address: string;
  postalcode: string;
  city: string;
  state: string;
  country: string;
  country_code: string;
  /** A credential: only administrators and the member itself see it; null for everyone else. */
  device_id: string | null;
  /** ms */
  created_ts: number;
  invitation_pending: boolean;
}

/** Who a member answer is for: decides whether `device_id` is shown. */
export interface MemberViewer {
  id: string;
  role: string;
}

/** The caller as the viewer of member answers. */
export function memberViewerOf(ctx: Pick<AuthContext, 'memberId' | 'role'>): MemberViewer {
  return { id: ctx.memberId, role: ctx.role };
}

/** Whether `viewer` may see `member`'s `device_id` (a credential): administrators and the member itself. */
export function maySeeDeviceId(viewer: MemberViewer, memberId: string): boolean {
  return viewer.role === 'administrator' || viewer.id === memberId;
}

/**
 * The member answer for `viewer`, as never located (`location` null, `states` `{moving: "",
 * tracking_status: false}`): members can't read `member_locations`, owned by `@app/locations` which
 * depends on this lib. The api sets both fields in place (`MemberLocationsReader.attach`), which
 * keeps the answer's key order.
 */
export function toMemberView(m: Member, ownerId: string | null, viewer: MemberViewer): MemberView {
  return {
    uid: m.id,
    username: m.username,
    name: m.name,
    phone: m.phone,
    email: m.email,
    role: m.role,
    teams: m.teams,
    location: null,
    states: { moving: '', tracking_status: false },
    status_label: m.statusLabel,
    color: m.color,
    active_status: m.activeStatus,
    is_company_account: m.id === ownerId,
    vehicle_capacity: m.vehicleCapacity,
    travel_mode: m.travelMode,
    working_hours: m.workingHours,
    working_hours_overrides: m.workingHoursOverrides,
    ignore_working_hours_until_ts: m.ignoreWorkingHoursUntilTs,
    route_start_lat: m.routeStartLat,
    route_start_lng: m.routeStartLng,
    route_end_lat: m.routeEndLat,
    route_end_lng: m.routeEndLng,
    route_start_time: m.routeStartTime,
    unit_distance: m.unitDistance,
    unit_time: m.unitTime,
    unit_date: m.unitDate,
    timezone: m.timezone,
    language: m.language,
    skills: m.skills,
    expertise: m.expertise,
    radius: m.radius,
    address: m.address,
    postalcode: m.postalcode,
    city: m.city,
    state: m.state,
    country: m.country,
    country_code: m.countryCode,
    device_id: maySeeDeviceId(viewer, m.id) ? m.deviceId : null,
    created_ts: m.createdAt,
    invitation_pending: m.passwordHash === null && m.invitationTokenHash !== null,
  };
}

/** Wire field of editaccount → entity property. */
export const MEMBER_FIELD_COLUMNS: Record<string, keyof Member> = {
  name: 'name',
  phone: 'phone',
  email: 'email',
  color: 'color',
  role: 'role',
  teams: 'teams',
  status_label: 'statusLabel',
  vehicle_capacity: 'vehicleCapacity',
  travel_mode: 'travelMode',
  working_hours: 'workingHours',
  working_hours_overrides: 'workingHoursOverrides',
  ignore_working_hours_until_ts: 'ignoreWorkingHoursUntilTs',
  route_start_lat: 'routeStartLat',
  route_start_lng: 'routeStartLng',
  route_end_lat: 'routeEndLat',
  route_end_lng: 'routeEndLng',
  route_start_time: 'routeStartTime',
  unit_distance: 'unitDistance',
  unit_time: 'unitTime',
  unit_date: 'unitDate',
  timezone: 'timezone',
  language: 'language',
  skills: 'skills',
  expertise: 'expertise',
  radius: 'radius',
  address: 'address',
  postalcode: 'postalcode',
  city: 'city',
  state: 'state',
  country: 'country',
  country_code: 'countryCode',
  device_id: 'deviceId',
};
