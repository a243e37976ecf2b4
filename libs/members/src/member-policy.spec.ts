import { mayCallAction, Role, ROLES } from '@app/core';
import {
  deniedMemberFields,
  MEMBER_ACTION_ROLES,
  mayCreateRole,
  mayDeactivate,
  mayViewDeactivated,
  mayViewMember,
  MemberRef,
  seesCompanyWideNotifications,
  WORKER_SELF_FIELDS,
} from './member-policy';

const member = (id: string, role: Role, teams: number[] = [], isOwner = false): MemberRef => ({ id, role, teams, isOwner });

const owner = member('owner', 'administrator', [], true);
const admin = member('admin', 'administrator', [1]);
const operator = member('op', 'operator', [1]);
const operator2 = member('op2', 'operator', [2]);
const worker = member('w1', 'worker', [1, 2]);
const workerSameTeam = member('w2', 'worker', [2, 3]);
const workerOtherTeam = member('w3', 'worker', [3]);
const workerNoTeam = member('w4', 'worker', []);

/** Every field an editaccount may name, beyond the worker's own. */
const STAFF_ONLY_FIELDS = [
  'role',
  'teams',
  'skills',
  'expertise',
  'working_hours',
  'working_hours_overrides',
  'route_start_lat',
  'username',
];

describe('MEMBER_ACTION_ROLES (CONTRACTS.md role table)', () => {
  type Row = [keyof typeof MEMBER_ACTION_ROLES, administrator: boolean, operator: boolean, worker: boolean];
  const table: Row[] = [
    ['getaccounts', true, true, true],
    ['createaccount', true, true, false],
    ['editaccount', true, true, true],
    ['deleteaccount', true, true, false],
    ['getcompany', true, true, true],
    ['editcompany', true, false, false],
    ['getnotifications', true, true, true],
  ];

  it.each(table)('%s: administrator %p, operator %p, worker %p', (action, a, o, w) => {
    expect(mayCallAction(MEMBER_ACTION_ROLES, 'administrator', action)).toBe(a);
    expect(mayCallAction(MEMBER_ACTION_ROLES, 'operator', action)).toBe(o);
    expect(mayCallAction(MEMBER_ACTION_ROLES, 'worker', action)).toBe(w);
  });

  it('covers exactly the actions of the slice', () => {
    expect(table.map(([action]) => action).sort()).toEqual(Object.keys(MEMBER_ACTION_ROLES).sort());
  });
});

describe('mayViewMember', () => {
  it('lets administrators and operators see every member', () => {
    for (const actor of [owner, admin, operator]) {
      for (const target of [owner, admin, operator, operator2, worker, workerOtherTeam, workerNoTeam]) {
        expect(mayViewMember(actor, target)).toBe(true);
      }
    }
  });

  it('lets a worker see itself, even without teams', () => {
    expect(mayViewMember(worker, worker)).toBe(true);
    expect(mayViewMember(workerNoTeam, { ...workerNoTeam })).toBe(true);
  });

  it('lets a worker see members sharing at least one team, whatever their role', () => {
    expect(mayViewMember(worker, workerSameTeam)).toBe(true); // shares team 2
    expect(mayViewMember(worker, operator)).toBe(true); // shares team 1
    expect(mayViewMember(worker, operator2)).toBe(true); // shares team 2
    expect(mayViewMember(workerSameTeam, worker)).toBe(true);
  });

  it('hides members that share no team from a worker', () => {
    expect(mayViewMember(worker, workerOtherTeam)).toBe(false);
    expect(mayViewMember(worker, workerNoTeam)).toBe(false);
    expect(mayViewMember(worker, owner)).toBe(false);
    expect(mayViewMember(workerOtherTeam, operator)).toBe(false);
    // two team-less workers share nothing
    expect(mayViewMember(workerNoTeam, member('w5', 'worker', []))).toBe(false);
  });
});

describe('mayViewDeactivated / seesCompanyWideNotifications', () => {
  it('is staff only', () => {
    expect(mayViewDeactivated(admin)).toBe(true);
    expect(mayViewDeactivated(operator)).toBe(true);
    expect(mayViewDeactivated(worker)).toBe(false);
    expect(seesCompanyWideNotifications(admin)).toBe(true);
    expect(seesCompanyWideNotifications(operator)).toBe(true);
    expect(seesCompanyWideNotifications(worker)).toBe(false);
  });
});

describe('mayCreateRole', () => {
  it('lets administrators create any role', () => {
    for (const role of ROLES) {
      expect(mayCreateRole(admin, role)).toBe(true);
      expect(mayCreateRole(owner, role)).toBe(true);
    }
  });

  it('lets operators create workers only', () => {
    expect(mayCreateRole(operator, 'worker')).toBe(true);
    expect(mayCreateRole(operator, 'operator')).toBe(false);
    expect(mayCreateRole(operator, 'administrator')).toBe(false);
  });

  it('lets workers create nothing', () => {
    for (const role of ROLES) expect(mayCreateRole(worker, role)).toBe(false);
  });
});

describe('WORKER_SELF_FIELDS', () => {
  it('is exactly the list of CONTRACTS.md (unit_* = distance, time, date)', () => {
    expect([...WORKER_SELF_FIELDS].sort()).toEqual(
      [
        'name',
        'phone',
        'email',
        'color',
        'status_label',
        'unit_distance',
        'unit_time',
        'unit_date',
        'timezone',
        'language',
        'device_id',
      ].sort(),
    );
  });
});

describe('deniedMemberFields', () => {
  const selfFields = [...WORKER_SELF_FIELDS];
  const allFields = [...selfFields, ...STAFF_ONLY_FIELDS];

  describe('administrator', () => {
    it('may change every field of any non-owner member', () => {
      for (const target of [admin, operator, worker, workerOtherTeam]) {
        expect(deniedMemberFields(admin, target, allFields)).toEqual([]);
        expect(deniedMemberFields(owner, target, allFields)).toEqual([]);
      }
    });

    it('may change every field of the owner but its role', () => {
      expect(deniedMemberFields(admin, owner, allFields)).toEqual(['role']);
      expect(deniedMemberFields(admin, owner, ['name', 'phone'])).toEqual([]);
      expect(deniedMemberFields(admin, owner, [])).toEqual([]);
    });

    it('keeps the owner from demoting itself', () => {
      expect(deniedMemberFields(owner, owner, ['role', 'name'])).toEqual(['role']);
    });

    it('lets a non-owner administrator change its own role', () => {
      expect(deniedMemberFields(admin, admin, ['role', 'teams'])).toEqual([]);
    });
  });

  describe('operator', () => {
    it('may change a worker, but never its role', () => {
      expect(deniedMemberFields(operator, worker, allFields)).toEqual(['role']);
      expect(deniedMemberFields(operator, workerOtherTeam, ['teams', 'name'])).toEqual([]);
      expect(deniedMemberFields(operator, workerNoTeam, ['role'])).toEqual(['role']);
    });

    it('may not edit another operator, an administrator or the owner at all', () => {
      expect(deniedMemberFields(operator, operator2, ['name'])).toBeNull();
      expect(deniedMemberFields(operator, admin, ['name'])).toBeNull();
      expect(deniedMemberFields(operator, owner, ['name'])).toBeNull();
      expect(deniedMemberFields(operator, operator2, [])).toBeNull();
    });

    it('edits its own profile with the worker’s fields only', () => {
      expect(deniedMemberFields(operator, operator, selfFields)).toEqual([]);
      expect(deniedMemberFields(operator, operator, allFields)).toEqual(STAFF_ONLY_FIELDS);
      expect(deniedMemberFields(operator, { ...operator }, ['name', 'role', 'teams'])).toEqual(['role', 'teams']);
    });
  });

  describe('worker', () => {
    it('edits its own profile with WORKER_SELF_FIELDS only', () => {
      expect(deniedMemberFields(worker, worker, selfFields)).toEqual([]);
      expect(deniedMemberFields(worker, worker, allFields)).toEqual(STAFF_ONLY_FIELDS);
      expect(deniedMemberFields(worker, worker, ['role'])).toEqual(['role']);
      expect(deniedMemberFields(worker, worker, ['teams', 'timezone'])).toEqual(['teams']);
      expect(deniedMemberFields(worker, worker, [])).toEqual([]);
    });

    it('may not edit anyone else, team-mates included', () => {
      for (const target of [workerSameTeam, workerOtherTeam, operator, admin, owner]) {
        expect(deniedMemberFields(worker, target, ['name'])).toBeNull();
      }
    });
  });
});

describe('mayDeactivate', () => {
  it('never lets anyone deactivate the owner', () => {
    for (const actor of [owner, admin, operator, worker]) expect(mayDeactivate(actor, owner)).toBe(false);
  });

  it('lets administrators deactivate anyone else', () => {
    for (const target of [admin, member('admin2', 'administrator'), operator, worker]) {
      expect(mayDeactivate(admin, target)).toBe(true);
      expect(mayDeactivate(owner, target)).toBe(true);
    }
  });

  it('lets operators deactivate workers only', () => {
    expect(mayDeactivate(operator, worker)).toBe(true);
    expect(mayDeactivate(operator, workerOtherTeam)).toBe(true);
    expect(mayDeactivate(operator, operator2)).toBe(false);
    expect(mayDeactivate(operator, operator)).toBe(false);
    expect(mayDeactivate(operator, admin)).toBe(false);
  });

  it('lets workers deactivate nobody, not even themselves', () => {
    for (const target of [worker, workerSameTeam, operator, admin]) expect(mayDeactivate(worker, target)).toBe(false);
  });
});
