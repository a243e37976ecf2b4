import { AuthContext, dayInZone } from '@app/core';
import { JobsService, parseJobWrites } from '@app/jobs';
import { ApiKeysService, CompanyService, MembersService } from '@app/members';
import { DataSource } from 'typeorm';

export const DEMO_USERNAME = 'dispatch@demo.fieldwork.test';
/** The demo worker whose phone replays a real recorded drive (`demo-live`). */
export const DEMO_WORKER_USERNAME = 'luka.novak@demo.fieldwork.test';

/** Teams and members of the demo company: a small plumbing and HVAC service business. */
const TEAMS = [
  { id: 1, name: 'North', route: { lat: 46.0569, lng: 14.5058, time: 420 } },
  { id: 2, name: 'South', route: { lat: 45.9981, lng: 14.4871, time: 450 } },
  { id: 3, name: 'Installations' },
];
const WEEKDAY = { start: 420, end: 930 };
const OFF = { start: 0, end: 0 };
const HOURS = { monday: WEEKDAY, tuesday: WEEKDAY, wednesday: WEEKDAY, thursday: WEEKDAY, friday: WEEKDAY, saturday: OFF, sunday: OFF };
const MEMBERS = [
  { name: 'Maja Kovač', username: 'maja.kovac@demo.fieldwork.test', role: 'operator' as const, teams: [1, 2, 3], phone: '+386 41 555 120' },
  { name: 'Luka Novak', username: 'luka.novak@demo.fieldwork.test', role: 'worker' as const, teams: [1], phone: '+386 41 555 131' },
  { name: 'Ana Horvat', username: 'ana.horvat@demo.fieldwork.test', role: 'worker' as const, teams: [1, 3], phone: '+386 41 555 142' },
  { name: 'Marko Zupan', username: 'marko.zupan@demo.fieldwork.test', role: 'worker' as const, teams: [2], phone: '+386 41 555 153' },
  {
    name: 'Nina Potočnik',
    username: 'nina.potocnik@demo.fieldwork.test',
    role: 'worker' as const,
    teams: [2, 3],
    phone: '+386 41 555 164',
  },
  { name: 'Jure Krajnc', username: 'jure.krajnc@demo.fieldwork.test', role: 'worker' as const, teams: [3], phone: '+386 41 555 175' },
];

/** Today's jobs of the demo company: real Ljubljana addresses, some assigned, some not. */
const JOBS = [
  {
    destinationName: 'Boiler service',
    destinationText: 'Slovenska cesta 55, 1000 Ljubljana',
    destinationLat: 46.0545,
    destinationLng: 14.5033,
    worker: 'luka.novak@demo.fieldwork.test',
    windowStart: 800,
    windowEnd: 1000,
    teamId: 1,
    contactName: 'Petra Kos',
    contactPhone: '+386 41 222 301',
    priority: 5,
    onSiteSeconds: 3600,
  },
  {
    destinationName: 'Leaking radiator',
    destinationText: 'Celovška cesta 150, 1000 Ljubljana',
    destinationLat: 46.0707,
    destinationLng: 14.4853,
    worker: 'luka.novak@demo.fieldwork.test',
    windowStart: 1030,
    windowEnd: 1200,
    teamId: 1,
    contactName: 'Tomaž Vidmar',
    priority: 7,
    onSiteSeconds: 2700,
  },
  {
    destinationName: 'Gas heater inspection',
    destinationText: 'Trubarjeva cesta 40, 1000 Ljubljana',
    destinationLat: 46.0527,
    destinationLng: 14.5108,
    worker: 'ana.horvat@demo.fieldwork.test',
    windowStart: 900,
    windowEnd: 1100,
    teamId: 1,
    priority: 4,
    onSiteSeconds: 1800,
  },
  {
    destinationName: 'New underfloor heating',
    destinationText: 'Dunajska cesta 160, 1000 Ljubljana',
    destinationLat: 46.0845,
    destinationLng: 14.5152,
    worker: 'jure.krajnc@demo.fieldwork.test',
    windowStart: 730,
    windowEnd: 1530,
    teamId: 3,
    priority: 6,
    onSiteSeconds: 25200,
  },
  {
    destinationName: 'Blocked drain',
    destinationText: 'Ižanska cesta 12, 1000 Ljubljana',
    destinationLat: 46.0347,
    destinationLng: 14.5224,
    worker: 'marko.zupan@demo.fieldwork.test',
    windowStart: 800,
    windowEnd: 900,
    teamId: 2,
    priority: 9,
    onSiteSeconds: 1800,
  },
  {
    destinationName: 'Water heater replacement',
    destinationText: 'Tržaška cesta 85, 1000 Ljubljana',
    destinationLat: 46.0419,
    destinationLng: 14.4753,
    worker: 'nina.potocnik@demo.fieldwork.test',
    windowStart: 1300,
    windowEnd: 1600,
    teamId: 2,
    priority: 5,
    onSiteSeconds: 7200,
  },
  {
    destinationName: 'Annual maintenance',
    destinationText: 'Zaloška cesta 69, 1000 Ljubljana',
    destinationLat: 46.0555,
    destinationLng: 14.5413,
    teamId: 1,
    priority: 2,
    onSiteSeconds: 3600,
  },
  {
    destinationName: 'Tap replacement',
    destinationText: 'Cesta v Mestni log 55, 1000 Ljubljana',
    destinationLat: 46.0388,
    destinationLng: 14.4946,
    teamId: 2,
    priority: 3,
    onSiteSeconds: 1200,
  },
];

/**
 * Seeds the demo company when the database has no company yet, and issues a fresh demo key on
 * every call. @returns the key and whether the company was created now.
 */
export async function seedDemo(
  ds: DataSource,
  services: { company: CompanyService; members: MembersService; apiKeys: ApiKeysService; jobs: JobsService },
): Promise<{ apiKey: string; prefix: string; username: string; seeded: boolean }> {
  const [{ count }] = await ds.query(`SELECT count(*)::int AS count FROM companies`);
  const [demo] = await ds.query(`SELECT 1 FROM members WHERE lower(username) = lower($1) AND active_status = 'active'`, [DEMO_USERNAME]);
  if (count === 0 && !demo) {
    const created = await services.company.createCompany({
      name: 'Ljubljana Plumbing & Heating',
      username: DEMO_USERNAME,
      ownerName: 'Demo Dispatch Office',
      timezone: 'Europe/Ljubljana',
      password: 'demo-password-change-me',
    });
    const ctx: AuthContext = await services.apiKeys.authenticate(created.apiKey);
    await services.company.editCompany(ctx, {
      email: 'office@demo.fieldwork.test',
      phone: '+386 1 555 0100',
      address: 'Dunajska cesta 5, 1000 Ljubljana, Slovenia',
      working_hours: HOURS,
      teams_config: TEAMS,
    });
    for (const m of MEMBERS) {
      await services.members.createAccount(ctx, { ...m, password: 'demo-password-change-me' });
    }
    const day = dayInZone(Date.now(), 'Europe/Ljubljana');
    await services.jobs.createJobs(
      ctx,
      {
        jobs: parseJobWrites(
          JOBS.map((j, i) => ({ ...j, day, number: i + 1 })),
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
