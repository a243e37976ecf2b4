import { companyRouteEnds, resolveRouteEnds, RouteEndsInput } from './route-ends';

const member = (over: Partial<RouteEndsInput['member']> = {}): RouteEndsInput['member'] => ({
  routeStartLat: null,
  routeStartLng: null,
  routeEndLat: null,
  routeEndLng: null,
  teams: [],
  ...over,
});
const teams = [
  { id: 1, name: 'no route' },
  { id: 2, route: { lat: 46.1, lng: 14.6, time: 480 } },
  { id: 3, route: { lat: 45.0, lng: 13.0 } },
  { id: 4, route: { lat: 45.5 } },
];
const latest = { lat: 46.05, lng: 14.5 };

describe('resolveRouteEnds (CONTRACTS.md "Dispatch": member, first team with a route, latest location today, else open)', () => {
  it('takes the member’s own route_start first, and its route_end', () => {
    const ends = resolveRouteEnds({
      member: member({ routeStartLat: 1, routeStartLng: 2, routeEndLat: 3, routeEndLng: 4, teams: [2] }),
      teamsConfig: teams,
      latest,
      isToday: true,
    });
    expect(ends).toEqual({ start: { lat: 1, lng: 2 }, end: { lat: 3, lng: 4 }, startSource: 'member', endSource: 'member', closed: false });
  });

  it('else the first of the member’s teams (in its order) whose route has both coordinates', () => {
    const ends = resolveRouteEnds({ member: member({ teams: [1, 4, 3, 2] }), teamsConfig: teams, latest, isToday: true });
    expect(ends.start).toEqual({ lat: 45.0, lng: 13.0 });
    expect(ends.startSource).toBe('team');
  });

  it('else the latest location, only when the day is today', () => {
    expect(resolveRouteEnds({ member: member({ teams: [1] }), teamsConfig: teams, latest, isToday: true })).toMatchObject({
      start: latest,
      startSource: 'latest_location',
    });
    expect(resolveRouteEnds({ member: member({ teams: [1] }), teamsConfig: teams, latest, isToday: false })).toMatchObject({
      start: null,
      startSource: 'open',
    });
  });

  it('counts a coordinate pair only when both halves are set; the end is open without route_end', () => {
    const ends = resolveRouteEnds({
      member: member({ routeStartLat: 1, routeEndLng: 4 }),
      teamsConfig: teams,
      latest: null,
      isToday: true,
    });
    expect(ends).toEqual({ start: null, end: null, startSource: 'open', endSource: 'open', closed: false });
  });

  it('keeps a fixed end with an open start', () => {
    const ends = resolveRouteEnds({ member: member({ routeEndLat: 3, routeEndLng: 4 }), teamsConfig: [], latest: null, isToday: false });
    expect(ends).toMatchObject({ start: null, end: { lat: 3, lng: 4 }, endSource: 'member' });
  });

  it('startEndAtCompany: a closed tour from the company’s location', () => {
    expect(companyRouteEnds({ lat: 5, lng: 6 })).toEqual({
      start: { lat: 5, lng: 6 },
      end: { lat: 5, lng: 6 },
      startSource: 'company',
      endSource: 'company',
      closed: true,
    });
  });
});
