import { decodeOsmAnd, KNOT_MPS, osmandFieldName, parseOsmAndTimestamp } from './osmand-decoder';

const now = Date.UTC(2026, 10, 23, 12);
const q = (query: Record<string, unknown>) => decodeOsmAnd({ query, body: undefined, contentType: undefined, now });

describe('parseOsmAndTimestamp', () => {
  it.each([
    ['1700000000', 1_700_000_000_000],
    [1_700_000_000, 1_700_000_000_000],
    ['1700000000123', 1_700_000_000_123],
    [2 ** 31 - 1, (2 ** 31 - 1) * 1000],
    [2 ** 31, 2 ** 31],
    ['2026-11-23T10:00:00Z', Date.UTC(2026, 10, 23, 10)],
    ['2026-11-23T10:00:00.250+02:00', Date.UTC(2026, 10, 23, 8, 0, 0, 250)],
    ['2026-11-23T10:00:00+0200', Date.UTC(2026, 10, 23, 8)],
    ['2026-11-23T10:00:00', Date.UTC(2026, 10, 23, 10)],
    ['2026-11-23 10:00:05', Date.UTC(2026, 10, 23, 10, 0, 5)],
  ])('%j → %d', (value, ms) => {
    expect(parseOsmAndTimestamp(value)).toBe(ms);
  });

  it.each(['', 'yesterday', '2026-02-30 10:00:00', '2026-11-23 25:00:00', '17000000.5', '2026-11-23Tnoon', 1.5])('refuses %j', (v) => {
    expect(parseOsmAndTimestamp(v)).toBeNull();
  });
});

describe('decodeOsmAnd: query and form parameters', () => {
  it('reads Traccar Client parameters, speed in knots, unknown ones ignored', () => {
    expect(
      q({
        id: 'Phone-1',
        timestamp: '1700000000',
        lat: '46.05',
        lon: '14.5',
        speed: '10',
        bearing: '90.5',
        altitude: '300',
        accuracy: '4.2',
        batt: '77',
        hdop: '1.1',
        charge: 'true',
        driverUniqueId: 'x',
        wifi: 'aa-bb,-50',
        cell: '1,2,3,4',
        odometer: '100',
        activity: 'still',
      }),
    ).toEqual({
      ok: true,
      format: 'query',
      deviceId: 'Phone-1',
      fix: { ts: 1_700_000_000_000, lat: 46.05, lng: 14.5, spd: 10 * KNOT_MPS, dir: 90.5, elv: 300, acc: 4.2, bat: 77 },
    });
  });

  it('takes deviceid, location=lat,lon, heading, and the receive time without timestamp', () => {
    expect(q({ deviceid: 'd', location: '46.1,14.2', heading: '180' })).toEqual({
      ok: true,
      format: 'query',
      deviceId: 'd',
      fix: { ts: now, lat: 46.1, lng: 14.2, dir: 180 },
    });
  });

  it('reads a form body when the query string is empty; the last of a repeated parameter counts', () => {
    const out = decodeOsmAnd({
      query: {},
      body: { id: 'd', lat: ['1', '2'], lon: '3' },
      contentType: 'application/x-www-form-urlencoded',
      now,
    });
    expect(out).toEqual({ ok: true, format: 'form', deviceId: 'd', fix: { ts: now, lat: 2, lng: 3 } });
  });

  it('treats a request without coordinates as a heartbeat', () => {
    expect(q({ id: 'd', batt: '50' })).toEqual({ ok: true, format: 'query', deviceId: 'd', fix: null });
  });

  it.each([
    [{ lat: '1', lon: '2' }, 'id', 'is required: the device identifier (id or deviceid)'],
    [{ id: 'd', lat: 'north', lon: '2' }, 'lat', 'must be a number'],
    [{ id: 'd', lat: '1' }, 'lon', 'is required with lat'],
    [{ id: 'd', location: '1;2' }, 'location', 'must be "lat,lon" (two numbers)'],
    [{ id: 'd', lat: '1', lon: '2', speed: 'fast' }, 'speed', 'must be a number'],
    [{ id: 'd', lat: '1', lon: '2', timestamp: 'now' }, 'timestamp', 'must be Unix seconds or ms, ISO 8601, or yyyy-MM-dd HH:mm:ss (UTC)'],
    [{ id: 'x'.repeat(65) }, 'id', 'must be at most 64 characters'],
    // found by fuzzing: these reached PostgreSQL (a 500)
    [{ id: 'a\u0000b', lat: '1', lon: '2' }, 'id', 'must not contain the NUL character'],
    [{ deviceid: '\u0000' }, 'deviceid', 'must not contain the NUL character'],
    [{ id: 'a\ud800' }, 'id', 'must be well-formed Unicode: it holds a lone surrogate'],
    [{ deviceid: '\udc00b' }, 'deviceid', 'must be well-formed Unicode: it holds a lone surrogate'],
  ])('refuses %j naming %s', (query, field, rule) => {
    expect(q(query)).toEqual({ ok: false, format: 'query', field, rule });
  });
});

describe('decodeOsmAnd: the JSON body', () => {
  const json = (body: unknown) => decodeOsmAnd({ query: {}, body, contentType: 'application/json; charset=utf-8', now });
  const location = {
    timestamp: '2026-11-23T11:59:00.000Z',
    coords: { latitude: 46.05, longitude: 14.5, accuracy: 5, speed: 3.5, heading: 270, altitude: 290 },
    is_moving: true,
    odometer: 12,
    battery: { level: 0.42, is_charging: false },
    activity: { type: 'walking' },
  };

  it('reads the newer client body, speed already in m/s, battery 0..1 → percent', () => {
    expect(json({ device_id: 'Phone-2', location })).toEqual({
      ok: true,
      format: 'json',
      deviceId: 'Phone-2',
      fix: { ts: Date.UTC(2026, 10, 23, 11, 59), lat: 46.05, lng: 14.5, acc: 5, spd: 3.5, dir: 270, elv: 290, bat: 42 },
    });
  });

  it('treats -1 speed, heading, accuracy and battery level as unknown', () => {
    const out = json({
      device_id: 'd',
      location: { ...location, coords: { latitude: 1, longitude: 2, speed: -1, heading: -1, accuracy: -1 }, battery: { level: -1 } },
    });
    expect(out).toMatchObject({ ok: true, fix: { lat: 1, lng: 2 } });
    if (out.ok) expect(Object.keys(out.fix!).sort()).toEqual(['lat', 'lng', 'ts']);
  });

  it.each([
    [{ location }, 'device_id', 'is required (a string)'],
    [{ device_id: 'a\u0000', location }, 'device_id', 'must not contain the NUL character'],
    [{ device_id: 'a\ud800b', location }, 'device_id', 'must be well-formed Unicode: it holds a lone surrogate'],
    [[1], 'body', 'must be a JSON object {device_id, location}'],
    [{ device_id: 'd', location: { coords: { latitude: '1', longitude: 2 } } }, 'location.coords.latitude', 'must be a number'],
    [{ device_id: 'd', location: { coords: { latitude: 1 } } }, 'location.coords.longitude', 'is required (a number)'],
    [{ device_id: 'd', location: { ...location, battery: { level: 42 } } }, 'location.battery.level', 'must be between 0 and 1'],
    [
      { device_id: 'd', location: { ...location, timestamp: true } },
      'location.timestamp',
      'must be Unix seconds or ms, ISO 8601, or yyyy-MM-dd HH:mm:ss (UTC)',
    ],
  ])('refuses %j naming %s', (body, field, rule) => {
    expect(json(body)).toEqual({ ok: false, format: 'json', field, rule });
  });
});

describe('osmandFieldName', () => {
  it('names our fields as the client sent them', () => {
    expect(osmandFieldName('lng', 'query')).toBe('lon');
    expect(osmandFieldName('bat', 'json')).toBe('location.battery.level');
  });
});
