import {
  ActionRoles,
  ADMINISTRATORS,
  ANY_ROLE,
  DEFAULT_WORKER_SETTINGS,
  mayCallAction,
  mergeActionRoles,
  normalizeRole,
  ROLES,
  STAFF,
} from './policy';

describe('normalizeRole', () => {
  it.each([
    ['worker', 'worker'],
    ['Worker', 'worker'],
    ['WORKER', 'worker'],
    ['operator', 'operator'],
    ['OpErAtOr', 'operator'],
    ['dispatcher', 'operator'],
    ['Dispatcher', 'operator'],
    ['DISPATCHER', 'operator'],
    ['administrator', 'administrator'],
    ['Administrator', 'administrator'],
    ['admin', 'administrator'],
    ['ADMIN', 'administrator'],
    ['Admin', 'administrator'],
  ])('%p → %p', (input, expected) => {
    expect(normalizeRole(input)).toBe(expected);
  });

  it.each(['', 'owner', 'manager', 'admins', ' admin', 'admin ', 'work er', 'superadmin', 'toString', 'valueOf', 'hasOwnProperty'])(
    'the string %p is not a role',
    (input) => {
      expect(normalizeRole(input)).toBeUndefined();
    },
  );

  it.each([null, undefined, 1, true, {}, ['admin']])('the non-string %p is not a role', (input) => {
    expect(normalizeRole(input)).toBeUndefined();
  });

  // the alias table is a plain object: looked up without Object.hasOwn, these would resolve to
  // inherited members (normalizeRole('constructor') === Object)
  it.each(['constructor', 'Constructor', '__proto__', '__PROTO__'])('Object.prototype member %p is not a role', (input) => {
    expect(normalizeRole(input)).toBeUndefined();
  });

  it('stores the three spellings of ROLES', () => {
    expect([...ROLES].sort()).toEqual(['administrator', 'operator', 'worker']);
  });
});

describe('mergeActionRoles', () => {
  const people = { getpeople: ANY_ROLE, editpeople: STAFF } as const satisfies ActionRoles;
  const things = { getthings: STAFF, dropthings: ADMINISTRATORS } as const satisfies ActionRoles;

  it('joins the slices into one table, each action with its roles', () => {
    const table = mergeActionRoles(people, things);
    expect(Object.keys(table).sort()).toEqual(['dropthings', 'editpeople', 'getpeople', 'getthings']);
    expect(table.getpeople).toEqual(['worker', 'operator', 'administrator']);
    expect(table.editpeople).toEqual(['operator', 'administrator']);
    expect(table.dropthings).toEqual(['administrator']);
  });

  it('refuses an action listed by two slices, naming it', () => {
    expect(() => mergeActionRoles(people, things, { getthings: ANY_ROLE })).toThrow('the action getthings is listed in two slices');
  });

  it('gives a frozen table that a later change to a slice does not reach', () => {
    const slice: Record<string, readonly ('worker' | 'operator' | 'administrator')[]> = { getpeople: ['administrator'] };
    const table = mergeActionRoles(slice);
    slice.getpeople = ANY_ROLE;
    slice.sneaky = ANY_ROLE;
    expect(table).toEqual({ getpeople: ['administrator'] });
    expect(Object.isFrozen(table)).toBe(true);
    expect(Object.isFrozen(table.getpeople)).toBe(true);
  });

  it('of no slices is an empty table', () => {
    expect(mergeActionRoles()).toEqual({});
  });
});

describe('mayCallAction', () => {
  const table = mergeActionRoles({ getpeople: ANY_ROLE, editpeople: STAFF, dropthings: ADMINISTRATORS, nobody: [] });

  it.each([
    ['getpeople', true, true, true],
    ['editpeople', true, true, false],
    ['dropthings', true, false, false],
    ['nobody', false, false, false],
  ] as const)('%s: administrator %p, operator %p, worker %p', (action, a, o, w) => {
    expect(mayCallAction(table, 'administrator', action)).toBe(a);
    expect(mayCallAction(table, 'operator', action)).toBe(o);
    expect(mayCallAction(table, 'worker', action)).toBe(w);
  });

  it.each(['getthings', '', 'GETPEOPLE', 'constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'refuses the action %p, missing from the table, to every role',
    (action) => {
      const open: ActionRoles = table; // any name, as the guard may meet one at run time
      for (const role of ROLES) expect(mayCallAction(open, role, action)).toBe(false);
    },
  );
});

describe('DEFAULT_WORKER_SETTINGS', () => {
  it('matches CONTRACTS.md', () => {
    expect(DEFAULT_WORKER_SETTINGS).toEqual({ workers_edit_job: false, workers_create_places: false, workers_view_places: true });
  });
});
