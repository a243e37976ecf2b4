import { AuthContext } from '@app/core';
import { ApiKeysService, CompanyService, MembersService } from '@app/members';
import { DataSource } from 'typeorm';

export const DEMO_USERNAME = 'dispatch@demo.fieldwork.test';

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

/**
 * Seeds the demo company when the database has no company yet, and issues a fresh demo key on
 * every call. @returns the key and whether the company was created now.
 */
export async function seedDemo(
  ds: DataSource,
  services: { company: CompanyService; members: MembersService; apiKeys: ApiKeysService },
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
