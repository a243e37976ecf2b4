import { MemberRef } from '@app/members';
import { CompanySnapshot, SnapshotRow } from './company-snapshot';
import { selectMembers } from './locate-selection';

const row = (uid: string, created: number, over: Partial<SnapshotRow> = {}): SnapshotRow => ({
  uid,
  usr: `user.${uid.toLowerCase()}`,
  name: uid,
  email: '',
  phone: '',
  role: 'worker',
  teams: [],
  active: true,
  created,
  has_location: false,
  ts: null,
  lat: null,
  lng: null,
  acc: null,
  dir: null,
  spd: null,
  elv: null,
  bat: null,
  connection_type: null,
  android_id: null,
  loc_gps_on: null,
  loc_net_on: null,
  tracking_status: null,
  signal_ts: null,
  mx: '100',
  lx: null,
  ...over,
});

const snapshot = new CompanySnapshot('1', 0);
snapshot.apply(
  [
    row('ADMIN', 1, { role: 'administrator' }),
    row('W1', 2, { teams: [1] }),
    row('W2', 3, { teams: [1, 2] }),
    row('W3', 4, { teams: [3] }),
    row('GONE', 5, { teams: [1], active: false }),
    // a username that is another member's uid: the key selects both
    row('W4', 6, { usr: 'W1' }),
  ],
  '1',
);
const admin: MemberRef = { id: 'ADMIN', role: 'administrator', teams: [], isOwner: true };
const uids = (q: Parameters<typeof selectMembers>[1], actor: MemberRef = admin) => selectMembers(snapshot, q, actor).map((m) => m.row.uid);

describe('selectMembers', () => {
  it("'all' selects every active member in creation order", () => {
    expect(uids({ accounts: [], teams: 'all' })).toEqual(['ADMIN', 'W1', 'W2', 'W3', 'W4']);
  });

  it('teams select members of any of them; [] and omitted select none', () => {
    expect(uids({ accounts: [], teams: [2, 3] })).toEqual(['W2', 'W3']);
    expect(uids({ accounts: [], teams: [] })).toEqual([]);
    expect(uids({ accounts: [], teams: undefined })).toEqual([]);
  });

  it('accounts by uid or by username (case-insensitive), united with teams, each once', () => {
    expect(uids({ accounts: ['W3', 'USER.W2', 'nobody'], teams: [3] })).toEqual(['W2', 'W3']);
    expect(uids({ accounts: ['w1'], teams: undefined })).toEqual(['W4']);
    expect(uids({ accounts: ['W1'], teams: undefined })).toEqual(['W1', 'W4']);
  });

  it('never answers a deactivated member', () => {
    expect(uids({ accounts: ['GONE'], teams: [1] })).toEqual(['W1', 'W2']);
  });

  it('a worker sees only itself and its team-mates', () => {
    const w1: MemberRef = { id: 'W1', role: 'worker', teams: [1], isOwner: false };
    expect(uids({ accounts: [], teams: 'all' }, w1)).toEqual(['W1', 'W2']);
    const w4: MemberRef = { id: 'W4', role: 'worker', teams: [], isOwner: false };
    expect(uids({ accounts: ['W1', 'W4'], teams: undefined }, w4)).toEqual(['W4']);
  });
});
