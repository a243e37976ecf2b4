import type { FiringRow } from '../reads/alerts-firings.read';
import type { MemberRow } from '../reads/members-list.read';
import type { PlaceRow } from '../reads/places-list.read';
import { activityRow, ActivityRow } from './activities';
import { firingRow } from './alerts';
import { checkinRow, CheckinRow } from './checkins';
import { memberRow } from './members';
import { placeRow } from './places';

/** 20 Nov 2026 at hh:mm UTC. */
const utc = (h: number, m: number, s = 0) => Date.UTC(2026, 10, 20, h, m, s);

describe('activities and checkins rows', () => {
  const base: ActivityRow = {
    member_id: 'm1',
    job_id: 'j1',
    kind: 'done_failed',
    ts: utc(9, 0),
    duration: null,
    day: 20261120,
    destination_name: 'Boiler',
    destination_text: '',
    destination_lat: null,
    destination_lng: null,
    text_receiver: 'Nobody home',
    ts_accepted: 0,
    ts_rejected: 0,
    ts_done_success: 0,
    ts_done_failed: utc(9, 0),
    ts_check_in: 0,
    place_name: null,
    place_lat: null,
    place_lng: null,
  };

  it('an event: its label, the response on closing events only, the visit duration', () => {
    const done = activityRow(base, 'Ana');
    expect(done.values).toMatchObject({
      time: utc(9, 0),
      event: 'Done (failed)',
      job: 'Boiler',
      address: null,
      response: 'Nobody home',
      status: 'failed',
    });
    expect(done.geometry).toBeNull();
    const out = activityRow({ ...base, kind: 'checked_out', duration: 1079.6, destination_lat: 46, destination_lng: 14 }, 'Ana');
    expect(out.values).toMatchObject({ event: 'Checked out', response: null, duration: 1080 });
    expect(out.geometry).toEqual({ type: 'Point', coordinates: [14, 46] });
    const gone = activityRow({ ...base, kind: 'checked_in', day: null, destination_name: null }, 'Ana');
    expect(gone.values).toMatchObject({ event: 'Checked in', job: null, status: null, job_id: 'j1' });
  });

  it('a check-in: place or job, its position, duration in s (stored in ms), open visits without out', () => {
    const row: CheckinRow = {
      member_id: 'm1',
      place_id: 'p1',
      job_id: null,
      in_ts: utc(8, 0),
      out_ts: utc(8, 30),
      duration: 1_800_000,
      place_name: 'Depot',
      place_address: 'Trg 1, Ljubljana',
      place_lat: 46.1,
      place_lng: 14.6,
      job_name: null,
      job_address: null,
      destination_lat: null,
      destination_lng: null,
      job_place_lat: null,
      job_place_lng: null,
    };
    expect(checkinRow(row, 'Ana')).toEqual({
      values: {
        member: 'Ana',
        kind: 'place',
        name: 'Depot',
        address: 'Trg 1, Ljubljana',
        in: utc(8, 0),
        out: utc(8, 30),
        duration: 1800,
        latitude: 46.1,
        longitude: 14.6,
        target_id: 'p1',
      },
      geometry: { type: 'Point', coordinates: [14.6, 46.1] },
    });
    const atJob = checkinRow(
      { ...row, place_id: null, job_id: 'j1', out_ts: null, duration: null, job_name: 'Boiler', job_place_lat: 45, job_place_lng: 13 },
      'Ana',
    );
    expect(atJob.values).toMatchObject({ kind: 'job', name: 'Boiler', out: null, duration: null, latitude: 45, target_id: 'j1' });
  });
});

describe('alerts, members and places rows', () => {
  it('a firing: bigint time as a number, names as read, a Point where the member was, else none', () => {
    const r: FiringRow = {
      id: 'f1',
      ts: String(utc(9, 0)),
      rule_id: 'r1',
      title: 'Left the depot',
      action: 'zone_exit',
      member_id: 'm1',
      member: 'Ana',
      place: null,
      zone: 'Depot',
      check_type: null,
      message: 'Ana left Depot',
      lat: 46.05,
      lng: 14.5,
    };
    expect(firingRow(r)).toEqual({
      values: {
        time: utc(9, 0),
        member: 'Ana',
        alert: 'Left the depot',
        action: 'zone_exit',
        place: null,
        zone: 'Depot',
        check_type: null,
        message: 'Ana left Depot',
        latitude: 46.05,
        longitude: 14.5,
        member_uid: 'm1',
        alert_id: 'r1',
        firing_id: 'f1',
      },
      geometry: { type: 'Point', coordinates: [14.5, 46.05] },
    });
    expect(firingRow({ ...r, lat: null, lng: null }).geometry).toBeNull();
  });

  it("a member: its teams, its zone (else the company's), its last location as a Point; never located: no point, tracking off", () => {
    const r: MemberRow = {
      id: 'm1',
      name: 'Ana',
      username: 'ana@x.test',
      role: 'worker',
      active_status: 'active',
      teams: 'North, South',
      phone: '',
      email: 'ana@x.test',
      timezone: '',
      vehicle_capacity: null,
      skills: ['gas', 'water'],
      tracking_status: true,
      ts: String(utc(8, 0)),
      lat: 46.05,
      lng: 14.5,
      bat: 80,
    };
    const row = memberRow(r, 'Europe/Ljubljana');
    expect(row.values).toMatchObject({
      teams: 'North, South',
      timezone: 'Europe/Ljubljana',
      tracking: true,
      last_seen: utc(8, 0),
      skills: 'gas, water',
      uid: 'm1',
    });
    expect(row.geometry).toEqual({ type: 'Point', coordinates: [14.5, 46.05] });
    const never = memberRow(
      { ...r, teams: null, timezone: 'UTC', tracking_status: null, ts: null, lat: null, lng: null, bat: null },
      'Europe/Ljubljana',
    );
    expect(never.values).toMatchObject({ teams: '', timezone: 'UTC', tracking: false, last_seen: null, battery: null });
    expect(never.geometry).toBeNull();
  });

  it('a place: created as a number, teams, creator; a Point at its location, else none', () => {
    const r: PlaceRow = {
      id: 'p1',
      name: 'Depot',
      address: 'Trg 1',
      city: 'Ljubljana',
      postalcode: '1000',
      state: '',
      country_code: 'SI',
      lat: 46.05,
      lng: 14.5,
      radius: 100,
      teams: null,
      phone: '',
      email: '',
      color: '#ff0000',
      created_at: String(utc(7, 0)),
      creator: 'Owner',
    };
    const row = placeRow(r);
    expect(row.values).toMatchObject({ name: 'Depot', created: utc(7, 0), teams: '', creator: 'Owner', uid: 'p1', radius: 100 });
    expect(row.geometry).toEqual({ type: 'Point', coordinates: [14.5, 46.05] });
    expect(placeRow({ ...r, lat: null, lng: null }).geometry).toBeNull();
  });
});
