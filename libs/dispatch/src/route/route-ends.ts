import type { GeoPoint } from '../types';

/** Where a route's start was taken from (CONTRACTS.md "Dispatch", in this order of precedence). */
export type RouteStartSource = 'member' | 'team' | 'latest_location' | 'company' | 'open';
/** Where a route's end was taken from. */
export type RouteEndSource = 'member' | 'company' | 'open';

/** A route's fixed ends (degrees, WGS84); null = open (the solver picks the first / last job). */
export interface RouteEnds {
  start: GeoPoint | null;
  end: GeoPoint | null;
  startSource: RouteStartSource;
  endSource: RouteEndSource;
  /** True for a closed tour that starts and ends at `start` (the company's location). */
  closed: boolean;
}

/** What a member's route ends are resolved from: its own route fields, its teams, its latest location. */
export interface RouteEndsInput {
  member: {
    routeStartLat: number | null;
    routeStartLng: number | null;
    routeEndLat: number | null;
    routeEndLng: number | null;
    /** team ids, in the member's order ("the first of its teams that has one") */
    teams: readonly number[];
  };
  /** The company's `teams_config` (a team's `route` is `{lat?, lng?, time?}`). */
  teamsConfig: ReadonlyArray<{ id: number; route?: { lat?: number; lng?: number } }>;
  /** The member's latest location, or null when it was never located. */
  latest: GeoPoint | null;
  /** Whether the route's day is today in the company's time zone (only then does the latest location count). */
  isToday: boolean;
}

const point = (lat: number | null | undefined, lng: number | null | undefined): GeoPoint | null =>
  typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null;

/**
 * A member's route ends for optimizeroute (CONTRACTS.md "Dispatch"). Start, first found of: the
 * member's `route_start_lat/lng`; the `route` of the first of its teams (in `member.teams` order)
 * whose `teams_config` entry has both coordinates; its latest location when the day is today; else
 * open. End: the member's `route_end_lat/lng`, else open. A coordinate pair counts only when both
 * halves are set. `route_start_time` and `travel_mode` are not used (distances are straight-line).
 */
export function resolveRouteEnds(input: RouteEndsInput): RouteEnds {
  const { member } = input;
  const end = point(member.routeEndLat, member.routeEndLng);
  const endSource: RouteEndSource = end ? 'member' : 'open';
  const own = point(member.routeStartLat, member.routeStartLng);
  if (own) return { start: own, end, startSource: 'member', endSource, closed: false };
  const byId = new Map(input.teamsConfig.map((t) => [t.id, t]));
  for (const id of member.teams) {
    const team = point(byId.get(id)?.route?.lat, byId.get(id)?.route?.lng);
    if (team) return { start: team, end, startSource: 'team', endSource, closed: false };
  }
  if (input.isToday && input.latest) {
    return { start: { lat: input.latest.lat, lng: input.latest.lng }, end, startSource: 'latest_location', endSource, closed: false };
  }
  return { start: null, end, startSource: 'open', endSource, closed: false };
}

/** `startEndAtCompany`: a closed tour from and back to the company's location (degrees). */
export function companyRouteEnds(location: GeoPoint): RouteEnds {
  return { start: location, end: location, startSource: 'company', endSource: 'company', closed: true };
}
