/**
 * The mechanism of permissions (CONTRACTS.md, "Roles"): the three roles, the action → roles table's
 * type, a merge of the domains' slices that refuses an action named twice, and the check the api
 * runs before every action. The rules themselves live with their domain: each lib exports its
 * slice of the table (`MEMBER_ACTION_ROLES`, `JOB_ACTION_ROLES`, `WEBHOOK_ACTION_ROLES`…) and its
 * finer rules (which members, which fields); the api merges the slices into one table.
 */
export type Role = 'worker' | 'operator' | 'administrator';
export const ROLES: readonly Role[] = ['worker', 'operator', 'administrator'];

const ROLE_ALIASES: Record<string, Role> = {
  worker: 'worker',
  operator: 'operator',
  dispatcher: 'operator',
  administrator: 'administrator',
  admin: 'administrator',
};

/** `Worker`, `dispatcher`, `ADMIN`… → the stored spelling; undefined when not a role. */
export function normalizeRole(value: unknown): Role | undefined {
  if (typeof value !== 'string') return undefined;
  const key = value.toLowerCase();
  return Object.hasOwn(ROLE_ALIASES, key) ? ROLE_ALIASES[key] : undefined;
}

/** Defaults of the three worker settings, company settings every domain reads (CONTRACTS.md, "Roles"). */
export const DEFAULT_WORKER_SETTINGS = {
  workers_edit_job: false,
  workers_create_places: false,
  workers_view_places: true,
} as const;

/** Every role: an action anyone of the company may call. */
export const ANY_ROLE: readonly Role[] = ROLES;
/** Administrators and operators (dispatchers). */
export const STAFF: readonly Role[] = ['operator', 'administrator'];
/** Administrators only. */
export const ADMINISTRATORS: readonly Role[] = ['administrator'];

/**
 * A slice of the action → roles table: the roles allowed to call each action at all. Finer rules
 * (which members, which fields) are the owning domain's functions. Declare a slice
 * `as const satisfies ActionRoles` so its action names stay literal types.
 */
export type ActionRoles = Readonly<Record<string, readonly Role[]>>;

type Merged<T extends readonly ActionRoles[]> = T extends readonly [infer Head, ...infer Rest extends readonly ActionRoles[]]
  ? Head & Merged<Rest>
  : unknown;

/**
 * One table from the domains' slices, frozen.
 * @throws Error naming the action when two slices both list it (each action has one owner).
 */
export function mergeActionRoles<T extends readonly ActionRoles[]>(...slices: T): Merged<T> {
  const table: Record<string, readonly Role[]> = {};
  for (const slice of slices) {
    for (const [action, roles] of Object.entries(slice)) {
      if (Object.hasOwn(table, action)) throw new Error(`the action ${action} is listed in two slices of the roles table`);
      table[action] = Object.freeze([...roles]);
    }
  }
  return Object.freeze(table) as Merged<T>;
}

/**
 * Whether `role` may call `action` at all under `table`. `action` is typed as one of the table's
 * names (a typo does not compile); at run time an action missing from the table is refused to
 * everyone (also a name only an object's prototype has, such as `constructor`).
 */
export function mayCallAction<T extends ActionRoles>(table: T, role: Role, action: keyof T & string): boolean {
  return Object.hasOwn(table, action) && table[action].includes(role);
}
