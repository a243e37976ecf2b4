import { isWorkingOn } from '../assign';
import type { DispatchCompanyRow, DispatchMemberRow } from './members-autoassign.read';

/**
 * Whether `member` works on `day` (YYYYMMDD) by CONTRACTS.md "Dispatch": `working_hours_overrides[day]`,
 * else its `working_hours`, else its first team's, else the company's; 0/0 is off; nothing set
 * anywhere = available; `ignore_working_hours_until_ts` after the day's start = available. The rules
 * are `isWorkingOn`'s (`libs/dispatch/src/assign`); this feeds it the stored rows.
 * @param dayStartMs ms, the day's 00:00 in the company's time zone
 */
export function memberWorksOn(member: DispatchMemberRow, company: DispatchCompanyRow, day: number, dayStartMs: number): boolean {
  const firstTeam = member.teams?.length ? company.teamsConfig?.find((t) => t.id === member.teams[0]) : undefined;
  return isWorkingOn(
    {
      overrides: member.workingHoursOverrides ?? {},
      hours: member.workingHours,
      teamHours: firstTeam?.working_hours ?? null,
      companyHours: company.workingHours,
      ignoreUntilTs: member.ignoreWorkingHoursUntilTs,
      dayStartMs,
    },
    day,
  );
}
