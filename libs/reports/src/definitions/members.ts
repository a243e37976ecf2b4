import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { MemberRow, readMemberRows } from '../reads/members-list.read';

/** The `members` report's columns (ours; docs/reports.md). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'name', title: 'Name', kind: 'text', width: 24 },
  { key: 'username', title: 'Username', kind: 'text', width: 28 },
  { key: 'role', title: 'Role', kind: 'text', width: 13 },
  { key: 'status', title: 'Status', kind: 'text', width: 11 },
  { key: 'teams', title: 'Teams', kind: 'text', width: 20 },
  { key: 'phone', title: 'Phone', kind: 'text', width: 16 },
  { key: 'email', title: 'Email', kind: 'text', width: 26 },
  { key: 'timezone', title: 'Time zone', kind: 'text', width: 18 },
  { key: 'tracking', title: 'Tracking', kind: 'check', width: 9 },
  { key: 'last_seen', title: 'Last location at', kind: 'datetime', width: 18 },
  { key: 'latitude', title: 'Latitude', kind: 'coordinate', width: 11 },
  { key: 'longitude', title: 'Longitude', kind: 'coordinate', width: 11 },
  { key: 'battery', title: 'Battery (%)', kind: 'integer', width: 9 },
  { key: 'vehicle_capacity', title: 'Vehicle capacity', kind: 'integer', default: false },
  { key: 'skills', title: 'Skills', kind: 'text', default: false },
  { key: 'uid', title: 'Uid', kind: 'text', default: false, width: 28 },
];

/** One member as a row; its latest location as a Point (none yet: `geometry: null`). */
export function memberRow(r: MemberRow, companyZone: string): ReportRow {
  const located = r.lat !== null && r.lng !== null;
  return {
    values: {
      name: r.name,
      username: r.username,
      role: r.role,
      status: r.active_status,
      teams: r.teams ?? '',
      phone: r.phone,
      email: r.email,
      timezone: r.timezone || companyZone,
      tracking: r.tracking_status ?? false,
      last_seen: r.ts === null ? null : Number(r.ts),
      latitude: r.lat,
      longitude: r.lng,
      battery: r.bat,
      vehicle_capacity: r.vehicle_capacity,
      skills: r.skills.join(', '),
      uid: r.id,
    },
    geometry: located ? { type: 'Point', coordinates: [r.lng!, r.lat!] } : null,
  };
}

/**
 * `members` (no date filter): the named members in request order — who they are, their teams, and
 * where each was last seen (`member_locations`).
 */
export const MEMBERS_REPORT: ReportDefinition = {
  type: 'members',
  title: 'Members',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    for await (const r of readMemberRows(ctx.db, ctx.companyId, ctx.members.map((m) => m.id))) {
      yield memberRow(r, ctx.company.timezone);
    }
  },
  count: async (ctx) => ctx.members.length,
};
