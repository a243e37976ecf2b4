import { toConnectorTrack } from './connector-track';
import { TrackEntry } from './track-view';
import { checkTracksRange, MAX_TRACKS_RANGE_MS } from './tracks-range';

describe('toConnectorTrack', () => {
  it('answers every field of the Track entry but course_encoded, in camelCase', () => {
    const entry: TrackEntry = {
      id: 7,
      owner_uid: 'M1',
      kind: 'track_entry',
      labels: 0,
      start_ts: 1,
      end_ts: 2,
      start_lat: 3,
      start_lng: 4,
      end_lat: 5,
      end_lng: 6,
      distance: 7.5,
      waypoint_count: 8,
      speed_avg: 9,
      speed_max: 10,
      altitude_min: null,
      altitude_max: 12,
      altitude_gain: 13,
      altitude_loss: 14,
      short_encoded: 'abc',
      course_encoded: 'xyz',
      lat_min: 15,
      lat_max: 16,
      lng_min: 17,
      lng_max: 18,
      share_url: 'http://x/share/tracks/t',
    };
    const track = toConnectorTrack(entry);
    expect(track).toEqual({
      id: 7,
      ownerUid: 'M1',
      kind: 'track_entry',
      labels: 0,
      startTs: 1,
      endTs: 2,
      startLat: 3,
      startLng: 4,
      endLat: 5,
      endLng: 6,
      distance: 7.5,
      waypointCount: 8,
      speedAvg: 9,
      speedMax: 10,
      altitudeMin: null,
      altitudeMax: 12,
      altitudeGain: 13,
      altitudeLoss: 14,
      shortEncoded: 'abc',
      latMin: 15,
      latMax: 16,
      lngMin: 17,
      lngMax: 18,
      shareUrl: 'http://x/share/tracks/t',
    });
    // every snake_case field but course_encoded has its camelCase twin
    const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    expect(
      Object.keys(entry)
        .filter((k) => k !== 'course_encoded')
        .map(camel)
        .sort(),
    ).toEqual(Object.keys(track).sort());
  });
});

describe('checkTracksRange', () => {
  it('from ≤ until ≤ from + 31 days, naming <prefix>.until', () => {
    expect(() => checkTracksRange(10, 10, 'query')).not.toThrow();
    expect(() => checkTracksRange(0, MAX_TRACKS_RANGE_MS, 'query')).not.toThrow();
    expect(() => checkTracksRange(10, 9, 'query')).toThrow('query.until: must not be before query.from');
    expect(() => checkTracksRange(0, MAX_TRACKS_RANGE_MS + 1, 'data')).toThrow(
      'data.until: the range from data.from may span at most 31 days',
    );
  });
});
