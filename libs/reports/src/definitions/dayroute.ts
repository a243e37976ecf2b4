import { distanceM } from '@app/core/pure';
import { resolveRouteEnds } from '@app/dispatch/pure';
import { columnUnit, formatCell } from '../formats/cell-format';
import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportLocale } from '../report-table';
import { countJobRows, readJobRows } from '../reads/jobs-rows.read';
import { readRouteSettings, RouteMemberRow } from '../reads/members-route-settings.read';
import { jobPosition, jobValues, pointOf, Position } from './job-rows';
import { JOB_COLUMNS, jobQuery } from './jobs';

/** The spec's `dayroute` keys in the spec's order; the job keys share the `jobs` columns (docs/reports.md "dayroute"). */
const DAYROUTE_KEYS = (
  'number member date title status status_ts status_response routeinfo address place contact_name contact_phone teams orderid type ' +
  'scheduled_window check_ins check_outs onsite priority created saved accepted pickup_items dropoff_items manual_checks notes ' +
  'latitude longitude signature attachments custom_fields form_fields public_url'
).split(' ');

/** The keys of the default set (the rest through `columns`). */
const DAYROUTE_DEFAULT = new Set<string>(
  'number member title status status_ts routeinfo address place scheduled_window check_ins check_outs onsite pickup_items dropoff_items notes'.split(
    ' ',
  ),
);

const OWN: Record<string, ColumnSpec> = {
  number: { key: 'number', title: 'No.', kind: 'integer', width: 5 },
  routeinfo: { key: 'routeinfo', title: 'From previous stop', kind: 'text', width: 22 },
};

const COLUMNS: readonly ColumnSpec[] = DAYROUTE_KEYS.map((key) => {
  const spec = OWN[key] ?? JOB_COLUMNS.find((c) => c.key === key)!;
  return { ...spec, default: DAYROUTE_DEFAULT.has(key) };
});

/**
 * Assumed average speeds (m/s) by the member's `travel_mode`, for `routeinfo`'s driving time: 5 km/h
 * on foot, 15 km/h by bicycle, 40 km/h (an urban average) for every motor vehicle. We hold no road
 * network, so time = straight-line distance / this speed (docs/reports.md "dayroute").
 */
export const ASSUMED_SPEED_MPS: Readonly<Record<string, number>> = {
  pedestrian: 5 / 3.6,
  bicycle: 15 / 3.6,
  car: 40 / 3.6,
  van: 40 / 3.6,
  truck: 40 / 3.6,
  motorcycle: 40 / 3.6,
};

/** The assumed speed (m/s) of a travel mode; unknown modes as a car. */
export function assumedSpeed(travelMode: string | null | undefined): number {
  return ASSUMED_SPEED_MPS[travelMode ?? ''] ?? ASSUMED_SPEED_MPS.car;
}

/** One leg of the route: straight-line geodesic distance (m) and driving time at the assumed speed (s). */
export interface Leg {
  distance: number;
  duration: number;
}

/**
 * The legs of a day's stops in route order: each stop with coordinates measured from the previous stop
 * with coordinates — for the first, from `start` (the member's route start), else from itself (it
 * is where the route starts: 0 m, 0 s). A stop without coordinates has no leg (null) and is skipped
 * as a "previous stop".
 */
export function routeLegs(stops: ReadonlyArray<Position | null>, start: Position | null, speedMps: number): Array<Leg | null> {
  let prev = start;
  return stops.map((p) => {
    if (!p) return null;
    const distance = prev ? distanceM(prev, p) : 0;
    prev = p;
    return { distance, duration: Math.round(distance / speedMps) };
  });
}

/** A leg as the `routeinfo` text in the requester's units: `1.24 mi, 0:02:59`; null for no leg. */
export function routeInfoText(leg: Leg | null, locale: ReportLocale): string | null {
  if (!leg) return null;
  return `${formatCell(leg.distance, 'distance', locale)} ${columnUnit('distance', locale)}, ${formatCell(leg.duration, 'duration', locale)}`;
}

/** Where a member's route starts, as optimizeroute resolves it for a day that is not today: its own route start, else its first team's. */
function routeStart(m: RouteMemberRow | undefined): Position | null {
  if (!m) return null;
  return resolveRouteEnds({
    member: {
      routeStartLat: m.route_start_lat,
      routeStartLng: m.route_start_lng,
      routeEndLat: m.route_end_lat,
      routeEndLng: m.route_end_lng,
      teams: m.teams ?? [],
    },
    teamsConfig: m.teams_config ?? [],
    latest: null,
    isToday: false,
  }).start;
}

/**
 * `dayroute` (one day): each named member's jobs of the day in route order (`number`, then the
 * window's start), with `routeinfo` from the previous stop. Rows stream member by member; only the
 * previous stop is kept.
 */
export const DAYROUTE_REPORT: ReportDefinition = {
  type: 'dayroute',
  title: 'Day route',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    const names = new Map(ctx.members.map((m) => [m.id, m.name]));
    const settings = new Map(
      (await readRouteSettings(ctx.db, ctx.companyId, ctx.members.map((m) => m.id))).map((m) => [m.id, m]),
    );
    let member: string | null = null;
    let prev: Position | null = null;
    let speed = assumedSpeed(null);
    for await (const r of readJobRows(ctx.db, jobQuery(ctx))) {
      if (r.worker_id !== member) {
        member = r.worker_id;
        prev = routeStart(settings.get(member));
        speed = assumedSpeed(settings.get(member)?.travel_mode);
      }
      const position = jobPosition(r);
      const [leg] = routeLegs([position], prev, speed);
      if (position) prev = position;
      yield {
        values: {
          ...jobValues(r, names.get(r.worker_id) ?? '', ctx.company.timezone, ctx.locale),
          number: r.number || null,
          routeinfo: routeInfoText(leg, ctx.locale),
        },
        geometry: pointOf(position),
      };
    }
  },
  count: (ctx) => countJobRows(ctx.db, jobQuery(ctx)),
};
