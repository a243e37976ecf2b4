import { query } from '@app/core';
import type { DayHours, TeamConfig, WorkingHours } from '@app/members';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A member as autoassign reads it: who it is, when it works, what it carries, where its route starts. */
export interface DispatchMemberRow {
  id: string;
  username: string;
  role: string;
  active: boolean;
  teams: number[];
  vehicleCapacity: number | null;
  workingHours: WorkingHours | null;
  workingHoursOverrides: Record<string, DayHours>;
  /** ms */
  ignoreWorkingHoursUntilTs: number;
  routeStartLat: number | null;
  routeStartLng: number | null;
  routeEndLat: number | null;
  routeEndLng: number | null;
}

/** The company settings autoassign reads. */
export interface DispatchCompanyRow {
  timezone: string;
  workingHours: WorkingHours | null;
  teamsConfig: TeamConfig[];
}

const MEMBER_COLUMNS = `id, username, role, active_status = 'active' AS active, teams, vehicle_capacity AS "vehicleCapacity",
  working_hours AS "workingHours", working_hours_overrides AS "workingHoursOverrides",
  ignore_working_hours_until_ts::float8 AS "ignoreWorkingHoursUntilTs", route_start_lat AS "routeStartLat",
  route_start_lng AS "routeStartLng", route_end_lat AS "routeEndLat", route_end_lng AS "routeEndLng"`;

/**
 * The members and company settings autoassign (and createjobs with autoassign) reads, each read
 * scoped to one company.
 *
 * A documented read model across domains (docs/dispatch-assign.md): `members` and `companies`, both
 * owned by `@app/members` — who may take jobs, their working hours, capacities and route ends, and the
 * company's time zone, working hours and teams. Only these columns are read; nothing is written.
 */
@Injectable()
export class MembersAutoassignRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Members of the company named by uid or username (case-insensitive), active or not. */
  membersByRefs(companyId: string, refs: readonly string[]): Promise<DispatchMemberRow[]> {
    return query<DispatchMemberRow>(
      this.dataSource,
      `SELECT ${MEMBER_COLUMNS} FROM members
        WHERE company_id = $1 AND (id = ANY($2::varchar[]) OR lower(username) = ANY($3::text[]))`,
      [companyId, refs, refs.map((r) => r.toLowerCase())],
    );
  }

  /** Every active member of role `worker` (createjobs with autoassign), in id order. */
  activeWorkers(companyId: string): Promise<DispatchMemberRow[]> {
    return query<DispatchMemberRow>(
      this.dataSource,
      `SELECT ${MEMBER_COLUMNS} FROM members WHERE company_id = $1 AND active_status = 'active' AND role = 'worker' ORDER BY id`,
      [companyId],
    );
  }

  /** The company's time zone, working hours and `teams_config`. */
  async company(companyId: string): Promise<DispatchCompanyRow> {
    const [row] = await query<DispatchCompanyRow>(
      this.dataSource,
      `SELECT timezone, working_hours AS "workingHours", teams_config AS "teamsConfig" FROM companies WHERE id = $1`,
      [companyId],
    );
    return row;
  }
}
