import { DataSource } from 'typeorm';
import { action, connector, createCompany, createMember, startApi, TestApi, TestCompany, uniqueUsername } from '../support/api';

const TEAMS = [
  { id: 1, name: 'North' },
  { id: 2, name: 'South' },
];

describe('members and company', () => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api, { timezone: 'Europe/Ljubljana' });
    const res = await action(api, 'editcompany', { teams_config: TEAMS }, { key: company.key });
    expect(res.body.status).toBe(0);
  });
  afterAll(() => api.close());

  const memberRow = async (uid: string) => (await db.query(`SELECT * FROM members WHERE id = $1`, [uid]))[0];

  describe('createaccount', () => {
    it('creates a member with an argon2 hash, never a plaintext password', async () => {
      const username = uniqueUsername('new');
      const res = await action<any>(
        api,
        'createaccount',
        { name: 'Jana Novak', username, password: 'a long secret', role: 'Dispatcher', phone: '+386 41 000 111', teams: [1] },
        { key: company.key },
      );
      expect(res.body.status).toBe(0);
      expect(res.body.uid).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(res.body.account).toMatchObject({
        uid: res.body.uid,
        username,
        name: 'Jana Novak',
        role: 'operator',
        teams: [1],
        phone: '+386 41 000 111',
        active_status: 'active',
      });
      expect(JSON.stringify(res.body)).not.toContain('a long secret');
      const row = await memberRow(res.body.uid);
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(row)).not.toContain('a long secret');
    });

    it('without a password issues a hashed, expiring invitation and a notification', async () => {
      const username = uniqueUsername('invited');
      const before = Date.now();
      const res = await action<any>(api, 'createaccount', { name: 'Invited One', username }, { key: company.key });
      expect(res.body.status).toBe(0);
      expect(res.body.account.invitation_pending).toBe(true);
      const row = await memberRow(res.body.uid);
      expect(row.password_hash).toBeNull();
      expect(row.invitation_token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(Number(row.invitation_expires_at)).toBeGreaterThan(before);
      // the invitation notification is the new member's own; staff see the company-wide list refresh
      const mine = await db.query(`SELECT kind FROM notifications WHERE member_id = $1`, [res.body.uid]);
      expect(mine).toEqual([{ kind: 'invitation_sent' }]);
      const n = await action<any>(api, 'getnotifications', { since: before - 1000 }, { key: company.key });
      expect(n.body.notifications).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'members_changed', memberUid: null })]));
      expect(n.body.notifications.map((x: { memberUid: string }) => x.memberUid)).not.toContain(res.body.uid);
    });

    it('usernames are unique across the platform, case-insensitively', async () => {
      const username = uniqueUsername('dup');
      expect((await action(api, 'createaccount', { name: 'A', username }, { key: company.key })).body.status).toBe(0);
      const same = await action(api, 'createaccount', { name: 'B', username: username.toUpperCase() }, { key: company.key });
      expect(same.http).toBe(409);
      expect(same.body.status).toBe(-4);
      expect(same.body.error).toMatch(/^data\.username/);
      const other = await createCompany(api);
      const elsewhere = await action(api, 'createaccount', { name: 'C', username }, { key: other.key });
      expect(elsewhere.body).toEqual({ status: -4, error: 'data.username: username not available' });
    });

    it('two racing createaccount calls on one username in different case create one member', async () => {
      const username = uniqueUsername('race');
      const results = await Promise.all(
        [username, username.toUpperCase(), username, username.toUpperCase()].map((u, i) =>
          action(api, 'createaccount', { name: `Racer ${i}`, username: u, password: 'racing password' }, { key: company.key }),
        ),
      );
      expect(results.filter((r) => r.body.status === 0)).toHaveLength(1);
      expect(results.filter((r) => r.body.status === -4)).toHaveLength(3);
      const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM members WHERE lower(username) = lower($1)`, [username]);
      expect(count).toBe(1);
    });

    it('reactivates a deactivated member of the company, keeping uid and history, applying the fields sent', async () => {
      const m = await createMember(api, company, { role: 'worker', teams: [2] });
      await action(api, 'editaccount', { uid: m.uid, color: '#112233' }, { key: company.key });
      expect((await action(api, 'deleteaccount', { uid: m.uid }, { key: company.key })).body.status).toBe(0);
      expect((await memberRow(m.uid)).active_status).toBe('deactivated');
      const res = await action<any>(api, 'createaccount', { name: 'Renamed', username: m.username.toUpperCase() }, { key: company.key });
      expect(res.body.status).toBe(0);
      expect(res.body.uid).toBe(m.uid);
      expect(res.body.account).toMatchObject({
        name: 'Renamed',
        username: m.username,
        teams: [2],
        color: '#112233',
        active_status: 'active',
      });
    });

    it('an unknown team is refused naming data.teams, and nothing is written', async () => {
      const username = uniqueUsername('badteam');
      const res = await action(api, 'createaccount', { name: 'X', username, teams: [1, 99] }, { key: company.key });
      expect(res.body).toEqual({ status: -1, error: "data.teams: team 99 is not in the company's teams_config" });
      expect(await db.query(`SELECT 1 FROM members WHERE lower(username) = lower($1)`, [username])).toHaveLength(0);
    });

    it.each([
      [{ name: '', username: 'u1@example.test' }, 'data.name'],
      [{ username: 'u2@example.test' }, 'data.name'],
      [{ name: 'N' }, 'data.username'],
      [{ name: 'N', username: 'has space@example.test' }, 'data.username'],
      [{ name: 'N', username: 'u3@example.test', password: 'short' }, 'data.password'],
      [{ name: 'N', username: 'u4@example.test', role: 'boss' }, 'data.role'],
      [{ name: 'N', username: 'u5@example.test', phone: 'x'.repeat(65) }, 'data.phone'],
      [{ name: 'N', username: 'u6@example.test', email: 'not-mail' }, 'data.email'],
      [{ name: 'N', username: 'u7@example.test', teams: ['1'] }, 'data.teams'],
      [{ name: 5, username: 'u8@example.test' }, 'data.name'],
    ])('refuses %j naming %s', async (data, field) => {
      const res = await action(api, 'createaccount', data, { key: company.key });
      expect(res.http).toBe(400);
      expect(res.body.status).toBe(-1);
      expect(res.body.error!.startsWith(`${field}:`)).toBe(true);
      const username = (data as { username?: string }).username;
      if (username) expect(await db.query(`SELECT 1 FROM members WHERE lower(username) = lower($1)`, [username])).toHaveLength(0);
    });
  });

  describe('member limit', () => {
    it('is enforced as -5/403 when MEMBER_LIMIT is reached', async () => {
      const { AppConfig } = await import('@app/core');
      const config = api.app.get(AppConfig);
      const limited = await createCompany(api);
      config.MEMBER_LIMIT = 2;
      try {
        expect((await action(api, 'createaccount', { name: 'Second', username: uniqueUsername() }, { key: limited.key })).body.status).toBe(
          0,
        );
        const third = await action(api, 'createaccount', { name: 'Third', username: uniqueUsername() }, { key: limited.key });
        expect(third).toEqual({ http: 403, body: { status: -5, error: 'member limit reached (2)' } });
      } finally {
        config.MEMBER_LIMIT = 0;
      }
    });
  });

  describe('editaccount', () => {
    let worker: { uid: string; username: string; key: string };
    beforeAll(async () => {
      worker = await createMember(api, company, { role: 'worker', teams: [1] });
    });

    it('changes only the fields sent, by uid or by account (username, any case)', async () => {
      const res = await action<any>(
        api,
        'editaccount',
        { account: worker.username.toUpperCase(), name: 'Edited Name', skills: ['gas', 'boilers'] },
        { key: company.key },
      );
      expect(res.body.status).toBe(0);
      expect(res.body.account).toMatchObject({ uid: worker.uid, name: 'Edited Name', skills: ['gas', 'boilers'], teams: [1] });
      const hours = {
        monday: { start: 420, end: 930 },
        tuesday: { start: 420, end: 930 },
        wednesday: { start: 0, end: 0 },
        thursday: { start: 420, end: 930 },
        friday: { start: 420, end: 900 },
        saturday: { start: 0, end: 0 },
        sunday: { start: 0, end: 0 },
      };
      const all = {
        uid: worker.uid,
        phone: '+1 (555) 010-2000',
        email: 'edited@example.test',
        color: '#A0B1C2',
        teams: [1, 2],
        status_label: 'on break',
        vehicle_capacity: 12,
        travel_mode: 'van',
        working_hours: hours,
        working_hours_overrides: { '20261224': { start: 480, end: 720 } },
        ignore_working_hours_until_ts: 1795000000000,
        route_start_lat: 46.05,
        route_start_lng: 14.5,
        route_end_lat: -33.9,
        route_end_lng: 151.2,
        route_start_time: 450,
        unit_distance: 'US',
        unit_time: '12',
        unit_date: 'MM/DD/YYYY',
        timezone: 'America/New_York',
        language: 'pt-BR',
        expertise: 'senior',
        radius: 150,
        address: 'Main St 1',
        postalcode: '1000',
        city: 'Ljubljana',
        state: 'LJ',
        country: 'Slovenia',
        country_code: 'SI',
        device_id: `dev-${worker.uid}`,
      };
      const full = await action<any>(api, 'editaccount', all, { key: company.key });
      expect(full.body.status).toBe(0);
      const { uid: _uid, ...expected } = all;
      expect(full.body.account).toMatchObject(expected);
      const listed = await action<any>(api, 'getaccounts', { uids: [worker.uid] }, { key: company.key });
      expect(listed.body.accounts[0]).toMatchObject(expected);
    });

    it('answers account: null when nothing changed or the member is unknown', async () => {
      const current = (await action<any>(api, 'getaccounts', { uids: [worker.uid] }, { key: company.key })).body.accounts[0];
      expect((await action(api, 'editaccount', { uid: worker.uid, name: current.name }, { key: company.key })).body).toEqual({
        status: 0,
        account: null,
      });
      expect((await action(api, 'editaccount', { uid: 'NOSUCHMEMBER', name: 'x' }, { key: company.key })).body).toEqual({
        status: 0,
        account: null,
      });
      expect((await action(api, 'editaccount', { account: 'nobody@nowhere.test', name: 'x' }, { key: company.key })).body).toEqual({
        status: 0,
        account: null,
      });
    });

    it('needs exactly one of account or uid', async () => {
      expect((await action(api, 'editaccount', { name: 'x' }, { key: company.key })).body.status).toBe(-1);
      expect(
        (await action(api, 'editaccount', { uid: worker.uid, account: worker.username, name: 'x' }, { key: company.key })).body.status,
      ).toBe(-1);
    });

    const BAD: Array<[string, unknown]> = [
      ['name', ''],
      ['name', null],
      ['phone', 'x'.repeat(65)],
      ['email', 'no-at-sign'],
      ['color', 'red'],
      ['color', '#12345'],
      ['role', 'king'],
      ['teams', [1, 'two']],
      ['teams', [7]],
      ['status_label', 'x'.repeat(201)],
      ['vehicle_capacity', -1],
      ['vehicle_capacity', 1.5],
      ['travel_mode', 'rocket'],
      ['working_hours', { monday: { start: 0, end: 600 } }],
      [
        'working_hours',
        {
          monday: { start: 1000, end: 200 },
          tuesday: { start: 0, end: 0 },
          wednesday: { start: 0, end: 0 },
          thursday: { start: 0, end: 0 },
          friday: { start: 0, end: 0 },
          saturday: { start: 0, end: 0 },
          sunday: { start: 0, end: 0 },
        },
      ],
      ['working_hours_overrides', { '20260230': { start: 1, end: 2 } }],
      ['working_hours_overrides', []],
      ['ignore_working_hours_until_ts', -5],
      ['route_start_lat', 91],
      ['route_start_lng', -181],
      ['route_end_lat', '46'],
      ['route_end_lng', 200],
      ['route_start_time', 1440],
      ['unit_distance', 'km'],
      ['unit_time', 24],
      ['unit_date', ''],
      ['timezone', 'Mars/Olympus'],
      ['language', 'English!'],
      ['skills', ['ok', 'x'.repeat(51)]],
      ['skills', 'gas'],
      ['expertise', 'x'.repeat(101)],
      ['radius', -3],
      ['address', 5],
      ['postalcode', 'x'.repeat(21)],
      ['city', ['Ljubljana']],
      ['state', {}],
      ['country', 1],
      ['country_code', 'SVN'],
      ['device_id', 'has space'],
    ];
    it.each(BAD)('refuses %s = %j naming it, and nothing changes', async (field, value) => {
      const before = await memberRow(worker.uid);
      const res = await action(api, 'editaccount', { uid: worker.uid, name: 'Should Not Stick', [field]: value }, { key: company.key });
      expect(res.http).toBe(400);
      expect(res.body.status).toBe(-1);
      expect(res.body.error).toContain(`data.${field}`);
      expect(await memberRow(worker.uid)).toEqual(before);
    });

    it('device_id is unique across the platform (-4), and "" clears it', async () => {
      const other = await createMember(api, company, { role: 'worker' });
      const deviceId = `phone-${Date.now()}`;
      expect((await action(api, 'editaccount', { uid: other.uid, device_id: deviceId }, { key: company.key })).body.status).toBe(0);
      const clash = await action(api, 'editaccount', { uid: worker.uid, device_id: deviceId.toUpperCase() }, { key: company.key });
      expect(clash.body).toEqual({ status: -4, error: 'data.device_id: device_id not available' });
      const cleared = await action<any>(api, 'editaccount', { uid: other.uid, device_id: '' }, { key: company.key });
      expect(cleared.body.account.device_id).toBeNull();
    });

    it("device_id is unique across companies too (the same -4), and once cleared or changed it is free for another company's member", async () => {
      const elsewhere = await createCompany(api);
      const theirs = await createMember(api, elsewhere, { role: 'worker' });
      const deviceId = `Shared-Phone-${Date.now()}`;
      expect((await action(api, 'editaccount', { uid: theirs.uid, device_id: deviceId }, { key: elsewhere.key })).body.status).toBe(0);
      const clash = await action(api, 'editaccount', { uid: worker.uid, device_id: deviceId.toLowerCase() }, { key: company.key });
      expect(clash.http).toBe(409);
      expect(clash.body).toEqual({ status: -4, error: 'data.device_id: device_id not available' });
      // changed: the old id is free, the new one taken
      expect((await action(api, 'editaccount', { uid: theirs.uid, device_id: `${deviceId}-2` }, { key: elsewhere.key })).body.status).toBe(
        0,
      );
      expect((await action(api, 'editaccount', { uid: worker.uid, device_id: deviceId }, { key: company.key })).body.status).toBe(0);
      const taken = await action(api, 'editaccount', { uid: worker.uid, device_id: `${deviceId}-2` }, { key: company.key });
      expect(taken.body).toEqual({ status: -4, error: 'data.device_id: device_id not available' });
      // cleared: free again
      expect((await action(api, 'editaccount', { uid: theirs.uid, device_id: '' }, { key: elsewhere.key })).body.status).toBe(0);
      expect((await action(api, 'editaccount', { uid: worker.uid, device_id: `${deviceId}-2` }, { key: company.key })).body.status).toBe(0);
      expect(await db.query(`SELECT company_id, member_id FROM member_device_ids WHERE device_id = lower($1)`, [`${deviceId}-2`])).toEqual([
        { company_id: company.companyUid, member_id: worker.uid },
      ]);
      expect(await db.query(`SELECT 1 FROM member_device_ids WHERE device_id = lower($1)`, [deviceId])).toEqual([]);
    });
  });

  describe('deleteaccount', () => {
    it('deactivates (history kept); the owner cannot be deleted; uids skips what the caller may not edit', async () => {
      const a = await createMember(api, company, { role: 'worker' });
      const b = await createMember(api, company, { role: 'administrator' });
      const op = await createMember(api, company, { role: 'operator' });
      expect((await action(api, 'deleteaccount', { uid: company.ownerUid }, { key: company.key })).body.status).toBe(-5);
      expect((await action(api, 'deleteaccount', { uid: 'UNKNOWNMEMBER' }, { key: company.key })).http).toBe(404);
      // a dispatcher deletes workers only: the admin and the owner are skipped silently
      const res = await action(api, 'deleteaccount', { uids: [a.uid, b.uid, company.ownerUid, 'UNKNOWNMEMBER'] }, { key: op.key });
      expect(res.body).toEqual({ status: 0 });
      expect((await memberRow(a.uid)).active_status).toBe('deactivated');
      expect((await memberRow(b.uid)).active_status).toBe('active');
      expect((await memberRow(company.ownerUid)).active_status).toBe('active');
      // history kept: the row is still there, and staff can read it by uid
      const got = await action<any>(api, 'getaccounts', { uids: [a.uid] }, { key: company.key });
      expect(got.body.accounts).toEqual([expect.objectContaining({ uid: a.uid, active_status: 'deactivated' })]);
      const listed = await action<any>(api, 'getaccounts', {}, { key: company.key });
      expect(listed.body.accounts.map((m: { uid: string }) => m.uid)).not.toContain(a.uid);
    });

    it('needs exactly one of uid or uids', async () => {
      expect((await action(api, 'deleteaccount', {}, { key: company.key })).body.status).toBe(-1);
    });
  });

  describe('company', () => {
    it('getcompany answers the company account, time zone, default radius, settings and teams_config', async () => {
      const res = await action<any>(api, 'getcompany', {}, { key: company.key });
      expect(res.body.company).toMatchObject({
        uid: company.companyUid,
        username: company.username,
        type: 'company',
        timezone: 'Europe/Ljubljana',
        default_radius: 100,
        workers_edit_job: false,
        workers_create_places: false,
        workers_view_places: true,
        stop_minutes: 5, // none of its own: the server's TRACK_STOP_MINUTES
        teams_config: [
          { id: 1, name: 'North', working_hours: null },
          { id: 2, name: 'South', working_hours: null },
        ],
      });
    });

    it('editcompany changes the fields sent; team hours report their source', async () => {
      const c = await createCompany(api);
      const hours = {
        monday: { start: 480, end: 960 },
        tuesday: { start: 480, end: 960 },
        wednesday: { start: 480, end: 960 },
        thursday: { start: 480, end: 960 },
        friday: { start: 480, end: 900 },
        saturday: { start: 0, end: 0 },
        sunday: { start: 0, end: 0 },
      };
      const teamHours = { ...hours, saturday: { start: 540, end: 720 } };
      const res = await action<any>(
        api,
        'editcompany',
        {
          name: 'Renamed Co',
          email: 'office@example.test',
          phone: '+386 1 234 5678',
          address: 'Trg 1',
          timezone: 'Pacific/Auckland',
          default_radius: 250,
          working_hours: hours,
          workers_edit_job: true,
          workers_create_places: true,
          workers_view_places: false,
          teams_config: [
            { id: 5, name: 'Night', working_hours: teamHours, route: { lat: 46, lng: 14.5, time: 420 } },
            { id: 6, name: 'Day' },
          ],
        },
        { key: c.key },
      );
      expect(res.body.status).toBe(0);
      expect(res.body.company).toMatchObject({
        name: 'Renamed Co',
        timezone: 'Pacific/Auckland',
        default_radius: 250,
        workers_edit_job: true,
        workers_view_places: false,
      });
      expect(res.body.company.teams_config[0].working_hours).toEqual({ ...teamHours, source: 'team' });
      // the stop threshold: the company's own, and null back to the server's
      expect((await action<any>(api, 'editcompany', { stop_minutes: 12 }, { key: c.key })).body.company.stop_minutes).toBe(12);
      expect((await action<any>(api, 'getcompany', {}, { key: c.key })).body.company.stop_minutes).toBe(12);
      expect((await action<any>(api, 'editcompany', { stop_minutes: null }, { key: c.key })).body.company.stop_minutes).toBe(5);
      expect(res.body.company.teams_config[1].working_hours).toEqual({ ...hours, source: 'default' });
      // a read value can be written back unchanged
      const again = await action<any>(api, 'editcompany', { teams_config: res.body.company.teams_config.slice(0, 1) }, { key: c.key });
      expect(again.body.status).toBe(0);
      expect(again.body.company.teams_config).toHaveLength(1);
    });

    it('removing a team still assigned to a member → -1 naming teams_config, nothing changed', async () => {
      const c = await createCompany(api);
      await action(api, 'editcompany', { teams_config: TEAMS }, { key: c.key });
      await createMember(api, c, { teams: [2] });
      const res = await action(api, 'editcompany', { teams_config: [TEAMS[0]], name: 'Not Applied' }, { key: c.key });
      expect(res.body).toEqual({ status: -1, error: 'data.teams_config: team 2 is still assigned to members; remove it from them first' });
      const after = await action<any>(api, 'getcompany', {}, { key: c.key });
      expect(after.body.company.teams_config).toHaveLength(2);
      expect(after.body.company.name).toBe('Test Co');
    });

    it.each([
      ['name', ''],
      ['email', 'nope'],
      ['phone', 'tab\there'],
      ['address', 1],
      ['timezone', 'Nowhere/Land'],
      ['default_radius', -1],
      ['stop_minutes', 0],
      ['stop_minutes', 241],
      ['stop_minutes', 2.5],
      ['working_hours', { monday: 1 }],
      ['workers_edit_job', 'yes'],
      ['workers_create_places', 1],
      ['workers_view_places', null],
      ['teams_config', [{ id: 0, name: 'Zero' }]],
      [
        'teams_config',
        [
          { id: 1, name: 'A' },
          { id: 1, name: 'B' },
        ],
      ],
      ['teams_config', { id: 1 }],
    ])('editcompany refuses %s = %j naming it', async (field, value) => {
      const res = await action(api, 'editcompany', { [field]: value }, { key: company.key });
      expect(res.body.status).toBe(-1);
      expect(res.body.error).toContain(`data.${field}`);
    });
  });

  describe('worker-input labels (editcompany extra_<kind>_<x>_key, issue #28)', () => {
    const LABEL_KEYS = [1, 2, 3, 4].flatMap((x) => [`extra_number_${x}_key`, `extra_text_${x}_key`]);

    it('editcompany sets them, getcompany answers all eight ("" unset), and every job answer carries them; "" clears one', async () => {
      const c = await createCompany(api);
      const other = await createCompany(api);
      const fresh = await action<any>(api, 'getcompany', {}, { key: c.key });
      for (const k of LABEL_KEYS) expect({ k, v: fresh.body.company[k] }).toEqual({ k, v: '' });

      const edit = await action<any>(
        api,
        'editcompany',
        { extra_number_1_key: 'Meter reading (kWh)', extra_text_2_key: 'Gate code', extra_text_4_key: 'Šifra 🔑' },
        { key: c.key },
      );
      expect(edit.body.status).toBe(0);
      expect(edit.body.company).toMatchObject({
        extra_number_1_key: 'Meter reading (kWh)',
        extra_text_2_key: 'Gate code',
        extra_text_4_key: 'Šifra 🔑',
      });
      expect((await action<any>(api, 'getcompany', {}, { key: c.key })).body.company).toMatchObject({
        extra_number_1_key: 'Meter reading (kWh)',
        extra_number_2_key: '',
        extra_text_2_key: 'Gate code',
      });

      const created = await action<any>(
        api,
        'createjobs',
        { jobs: [{ destinationName: 'Labelled', extra_number_1_val: 1234.5, extra_text_2_val: '4711' }, { destinationName: 'Empty' }] },
        { key: c.key },
      );
      expect(created.body.status).toBe(0);
      // the labels are the company's: on a job with values and on one without
      for (const job of created.body.jobs) {
        expect(job).toMatchObject({ extra_number_1_key: 'Meter reading (kWh)', extra_text_2_key: 'Gate code', extra_number_2_key: '' });
      }
      expect(created.body.jobs[0]).toMatchObject({ extra_number_1_val: 1234.5, extra_text_2_val: '4711' });
      const [read] = (await action<any>(api, 'getjobs', { id: created.body.jobs[0].id }, { key: c.key })).body.jobs;
      expect(read).toMatchObject({ extra_number_1_key: 'Meter reading (kWh)', extra_number_1_val: 1234.5, extra_text_2_key: 'Gate code' });

      // "" clears one, the others stay; another company's jobs never see them
      await action(api, 'editcompany', { extra_text_2_key: '' }, { key: c.key });
      const [after] = (await action<any>(api, 'getjobs', { id: created.body.jobs[0].id }, { key: c.key })).body.jobs;
      expect(after).toMatchObject({ extra_number_1_key: 'Meter reading (kWh)', extra_text_2_key: '', extra_text_2_val: '4711' });
      const theirs = await action<any>(api, 'createjobs', { jobs: [{ destinationName: 'Theirs' }] }, { key: other.key });
      for (const k of LABEL_KEYS) expect({ k, v: theirs.body.jobs[0][k] }).toEqual({ k, v: '' });

      // still read-only on a job: a job's label is the company's
      const write = await action(api, 'editjobs', { jobs: { [created.body.jobs[0].id]: { extra_number_1_key: 'Mine' } } }, { key: c.key });
      expect(write.body).toEqual({ status: -1, error: expect.stringContaining('extra_number_1_key: is read-only') });
    });

    it.each([
      ['extra_number_1_key', 5, 'must be a string'],
      ['extra_text_3_key', null, 'must be a string'],
      ['extra_number_2_key', 'x'.repeat(101), 'must be at most 100 characters'],
      ['extra_text_1_key', 'line\nbreak', 'must not contain control characters'],
    ])('editcompany refuses %s = %j naming it: %s', async (field, value, rule) => {
      const res = await action(api, 'editcompany', { [field]: value }, { key: company.key });
      expect(res).toEqual({ http: 400, body: { status: -1, error: expect.stringContaining(`data.${field}: ${rule}`) } });
    });

    it('a label of exactly 100 characters is taken; unknown field numbers and values are unknown keys', async () => {
      const c = await createCompany(api);
      expect(
        (await action<any>(api, 'editcompany', { extra_number_4_key: 'é'.repeat(100) }, { key: c.key })).body.company.extra_number_4_key,
      ).toBe('é'.repeat(100));
      for (const key of ['extra_number_5_key', 'extra_text_0_key', 'extra_number_1_val']) {
        const res = await action(api, 'editcompany', { [key]: 'x' }, { key: c.key });
        expect({ key, res: res.body }).toEqual({ key, res: { status: -1, error: expect.stringContaining(`data.${key}`) } });
      }
    });

    it('only administrators set them', async () => {
      const c = await createCompany(api);
      const dispatcher = await createMember(api, c, { role: 'dispatcher' });
      const res = await action(api, 'editcompany', { extra_number_1_key: 'x' }, { key: dispatcher.key });
      expect(res.body.status).toBe(-5);
    });
  });

  describe('field rules (docs/domain-rules.md "Field rules")', () => {
    const PHONE = '+1 (555) 123-4567 x89';
    const EMAIL = 'Ema <ema@x.test>';

    it('createaccount and editaccount store a CRM phone and a Name <address> e-mail as sent', async () => {
      const res = await action<any>(
        api,
        'createaccount',
        { name: 'Ema', username: uniqueUsername('ema'), phone: PHONE, email: EMAIL },
        { key: company.key },
      );
      expect(res.body.status).toBe(0);
      expect(res.body.account).toMatchObject({ phone: PHONE, email: EMAIL });
      expect(await memberRow(res.body.uid)).toMatchObject({ phone: PHONE, email: EMAIL });
      const edited = await action<any>(api, 'editaccount', { uid: res.body.uid, phone: '0800 FLOWERS' }, { key: company.key });
      expect(edited.body.status).toBe(0);
      expect((await memberRow(res.body.uid)).phone).toBe('0800 FLOWERS');
      const max = 'x'.repeat(64);
      expect((await action<any>(api, 'editaccount', { uid: res.body.uid, phone: max }, { key: company.key })).body.status).toBe(0);
      expect((await memberRow(res.body.uid)).phone).toBe(max);
    });

    it('editcompany stores the three examples as sent', async () => {
      const c = await createCompany(api);
      const res = await action<any>(api, 'editcompany', { phone: '0800 FLOWERS', email: EMAIL }, { key: c.key });
      expect(res.body.status).toBe(0);
      const [row] = await db.query(`SELECT phone, email FROM companies WHERE id = $1`, [c.companyUid]);
      expect(row).toEqual({ phone: '0800 FLOWERS', email: EMAIL });
      expect((await action<any>(api, 'editcompany', { phone: PHONE }, { key: c.key })).body.status).toBe(0);
      expect((await db.query(`SELECT phone FROM companies WHERE id = $1`, [c.companyUid]))[0].phone).toBe(PHONE);
    });

    it('a 65-character phone is -1/400 naming the field, on createaccount, editaccount and editcompany', async () => {
      const long = 'x'.repeat(65);
      const username = uniqueUsername('long');
      const rule = 'must be a phone: text of at most 64 characters without control characters, or ""';
      const created = await action(api, 'createaccount', { name: 'L', username, phone: long }, { key: company.key });
      expect(created).toEqual({ http: 400, body: { status: -1, error: `data.phone: ${rule}` } });
      expect(await db.query(`SELECT 1 FROM members WHERE lower(username) = lower($1)`, [username])).toHaveLength(0);
      const edited = await action(api, 'editaccount', { uid: company.ownerUid, phone: long }, { key: company.key });
      expect(edited).toEqual({ http: 400, body: { status: -1, error: `data.phone: ${rule}` } });
      const c = await createCompany(api);
      expect(await action(api, 'editcompany', { phone: long }, { key: c.key })).toEqual({
        http: 400,
        body: { status: -1, error: `data.phone: ${rule}` },
      });
      for (const email of ['no-at', '@x', 'x@', 'Ema <x@>']) {
        const res = await action(api, 'editcompany', { email }, { key: c.key });
        expect(res.http).toBe(400);
        expect(res.body.error).toMatch(/^data\.email: must be an e-mail address/);
      }
    });
  });

  describe('connector members', () => {
    it('searches name, username and e-mail case-insensitively, or an exact uid; leaves deactivated out; clamps max', async () => {
      const c = await createCompany(api);
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await createMember(api, c, { name: `Zoltan Worker ${i}` }));
      await action(api, 'deleteaccount', { uid: made[2].uid }, { key: c.key });
      const byName = await connector(api, 'GET', '/v1/members?query=zOLTAN', c.key);
      expect(byName.http).toBe(200);
      expect(byName.body.data.items.map((m: { id: string }) => m.id).sort()).toEqual([made[0].uid, made[1].uid].sort());
      expect(Object.keys(byName.body.data.items[0]).sort()).toEqual(['email', 'id', 'name', 'username']);
      const byUid = await connector(api, 'GET', `/v1/members?query=${made[1].uid}`, c.key);
      expect(byUid.body.data.items.map((m: { id: string }) => m.id)).toEqual([made[1].uid]);
      const limited = await connector(api, 'GET', '/v1/members?max=1', c.key);
      expect(limited.body.data.items).toHaveLength(1);
      const clamped = await connector(api, 'GET', '/v1/members?max=5000', c.key);
      expect(clamped.http).toBe(200);
      expect(clamped.body.data.items.length).toBeLessThanOrEqual(50);
      const pct = await connector(api, 'GET', '/v1/members?query=%25', c.key);
      expect(pct.body.data.items).toHaveLength(0);
    });
  });
});
