import { AuthContext, dayInZone } from '@app/core';
import { JobsService, parseJobWrites } from '@app/jobs';
import { ApiKeysService, CompanyService, MembersService } from '@app/members';
import { DataSource } from 'typeorm';

export const DEMO_USERNAME = 'dispatch@demo.fieldwork.test';
/** The demo worker whose phone replays a real recorded drive (`demo-live`). */
export const DEMO_WORKER_USERNAME = 'luka.novak@demo.fieldwork.test';

/** The demo company's time zone unless `seed-demo --timezone` names another. */
export const DEMO_TIMEZONE = 'Europe/Zagreb';

/**
 * Where the demo's day happens: on the real recorded drive around Višnjan, Istria
 * (`apps/cli/demo-data/`). The yard is where the drive starts and ends; Luka Novak's two jobs are where
 * the replay parks his car (the drive's northern turn and its recorded stop); the other jobs lie on or
 * near the same roads, at least 130 m from those three (their places' radius is 100 m), so his stops
 * check in at his own jobs only.
 */
export const DEMO_SITES = {
  yard: { lat: 45.27335, lng: 13.71415 },
  boilerService: { lat: 45.28091, lng: 13.72005 },
  leakingRadiator: { lat: 45.27632, lng: 13.71977 },
} as const;

/** Teams and members of the demo company: a small plumbing and HVAC service business in Istria. */
const TEAMS = [
  { id: 1, name: 'North', route: { ...DEMO_SITES.yard, time: 420 } },
  { id: 2, name: 'South', route: { ...DEMO_SITES.yard, time: 450 } },
  { id: 3, name: 'Installations' },
];
const WEEKDAY = { start: 420, end: 930 };
const OFF = { start: 0, end: 0 };
const HOURS = { monday: WEEKDAY, tuesday: WEEKDAY, wednesday: WEEKDAY, thursday: WEEKDAY, friday: WEEKDAY, saturday: OFF, sunday: OFF };
const MEMBERS = [
  { name: 'Maja Kovač', username: 'maja.kovac@demo.fieldwork.test', role: 'operator' as const, teams: [1, 2, 3], phone: '+385 91 555 120' },
  { name: 'Luka Novak', username: 'luka.novak@demo.fieldwork.test', role: 'worker' as const, teams: [1], phone: '+385 91 555 131' },
  { name: 'Ana Horvat', username: 'ana.horvat@demo.fieldwork.test', role: 'worker' as const, teams: [1, 3], phone: '+385 91 555 142' },
  { name: 'Marko Zupan', username: 'marko.zupan@demo.fieldwork.test', role: 'worker' as const, teams: [2], phone: '+385 91 555 153' },
  {
    name: 'Nina Potočnik',
    username: 'nina.potocnik@demo.fieldwork.test',
    role: 'worker' as const,
    teams: [2, 3],
    phone: '+385 91 555 164',
  },
  { name: 'Jure Krajnc', username: 'jure.krajnc@demo.fieldwork.test', role: 'worker' as const, teams: [3], phone: '+385 91 555 175' },
];

/** Today's jobs of the demo company, around Višnjan: some assigned, some not (autoassign's). */
const JOBS = [
  {
    destinationName: 'Boiler service',
    destinationText: 'North road, 52463 Višnjan, Croatia',
    destinationLat: DEMO_SITES.boilerService.lat,
    destinationLng: DEMO_SITES.boilerService.lng,
    worker: DEMO_WORKER_USERNAME,
    windowStart: 800,
    windowEnd: 1000,
    teamId: 1,
    contactName: 'Petra Kos',
    contactPhone: '+385 52 222 301',
    priority: 5,
    onSiteSeconds: 1800,
  },
  {
    destinationName: 'Leaking radiator',
    destinationText: 'East road, 52463 Višnjan, Croatia',
    destinationLat: DEMO_SITES.leakingRadiator.lat,
    destinationLng: DEMO_SITES.leakingRadiator.lng,
    worker: DEMO_WORKER_USERNAME,
    windowStart: 1030,
    windowEnd: 1200,
    teamId: 1,
    contactName: 'Tomaž Vidmar',
    priority: 7,
    onSiteSeconds: 900,
  },
  {
    destinationName: 'Gas heater inspection',
    destinationText: 'West road, 52463 Višnjan, Croatia',
    destinationLat: 45.27253,
    destinationLng: 13.71246,
    worker: 'ana.horvat@demo.fieldwork.test',
    windowStart: 900,
    windowEnd: 1100,
    teamId: 1,
    priority: 4,
    onSiteSeconds: 1800,
  },
  {
    destinationName: 'New underfloor heating',
    destinationText: 'Hill road, 52463 Višnjan, Croatia',
    destinationLat: 45.27954,
    destinationLng: 13.72199,
    worker: 'jure.krajnc@demo.fieldwork.test',
    windowStart: 730,
    windowEnd: 1530,
    teamId: 3,
    priority: 6,
    onSiteSeconds: 25200,
  },
  {
    destinationName: 'Blocked drain',
    destinationText: 'South road, 52463 Višnjan, Croatia',
    destinationLat: 45.27518,
    destinationLng: 13.71911,
    worker: 'marko.zupan@demo.fieldwork.test',
    windowStart: 800,
    windowEnd: 900,
    teamId: 2,
    priority: 9,
    onSiteSeconds: 1800,
  },
  {
    destinationName: 'Water heater replacement',
    destinationText: 'Village edge, 52463 Višnjan, Croatia',
    destinationLat: 45.27,
    destinationLng: 13.71,
    worker: 'nina.potocnik@demo.fieldwork.test',
    windowStart: 1300,
    windowEnd: 1600,
    teamId: 2,
    priority: 5,
    onSiteSeconds: 7200,
  },
  {
    destinationName: 'Annual maintenance',
    destinationText: 'Upper road, 52463 Višnjan, Croatia',
    destinationLat: 45.27624,
    destinationLng: 13.71427,
    teamId: 1,
    priority: 2,
    onSiteSeconds: 3600,
  },
  {
    destinationName: 'Tap replacement',
    destinationText: 'Farm track, 52463 Višnjan, Croatia',
    destinationLat: 45.285,
    destinationLng: 13.71,
    teamId: 2,
    priority: 3,
    onSiteSeconds: 1200,
  },
];

/** Each worker's jobs numbered from 1 in the list's order (the day's route); unassigned jobs have none. */
function numbered<T extends { worker?: string }>(jobs: T[]): Array<T & { number?: number }> {
  const next = new Map<string, number>();
  return jobs.map((j) => {
    if (!j.worker) return j;
    const n = (next.get(j.worker) ?? 0) + 1;
    next.set(j.worker, n);
    return { ...j, number: n };
  });
}

/**
 * Seeds the demo company when the database has no company yet, and issues a fresh demo key on
 * every call. @returns the key and whether the company was created now.
 */
export async function seedDemo(
  ds: DataSource,
  services: { company: CompanyService; members: MembersService; apiKeys: ApiKeysService; jobs: JobsService },
  timezone = DEMO_TIMEZONE,
): Promise<{ apiKey: string; prefix: string; username: string; seeded: boolean }> {
  const [{ count }] = await ds.query(`SELECT count(*)::int AS count FROM companies`);
  const [demo] = await ds.query(`SELECT 1 FROM members WHERE lower(username) = lower($1) AND active_status = 'active'`, [DEMO_USERNAME]);
  if (count === 0 && !demo) {
    const created = await services.company.createCompany({
      name: 'Istra Plumbing & Heating',
      username: DEMO_USERNAME,
      ownerName: 'Demo Dispatch Office',
      timezone,
      password: 'demo-password-change-me',
    });
    const ctx: AuthContext = await services.apiKeys.authenticate(created.apiKey);
    await services.company.editCompany(ctx, {
      email: 'office@demo.fieldwork.test',
      phone: '+385 52 555 0100',
      address: 'The yard, 52463 Višnjan, Croatia',
      working_hours: HOURS,
      teams_config: TEAMS,
    });
    for (const m of MEMBERS) {
      await services.members.createAccount(ctx, { ...m, password: 'demo-password-change-me' });
    }
    const day = dayInZone(Date.now(), timezone);
    await services.jobs.createJobs(
      ctx,
      {
        jobs: parseJobWrites(
          numbered(JOBS).map((j) => ({ ...j, day })),
          'data.jobs',
        ),
      },
      'api',
    );
    await services.apiKeys.revoke(created.prefix);
    const key = await services.apiKeys.issue(DEMO_USERNAME, 'demo');
    return { apiKey: key.apiKey, prefix: key.prefix, username: DEMO_USERNAME, seeded: true };
  }
  if (!demo)
    throw new Error(
      `the database has companies but no active ${DEMO_USERNAME}; create a key with: npm run -s cli -- create-api-key --username <login>`,
    );
  const key = await services.apiKeys.issue(DEMO_USERNAME, 'demo');
  return { apiKey: key.apiKey, prefix: key.prefix, username: DEMO_USERNAME, seeded: false };
}
