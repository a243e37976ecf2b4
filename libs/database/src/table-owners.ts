import owners from './table-owners.json';

/** The libs that own tables (`libs/<name>`), and `database` for TypeORM's own `migrations`. */
export type TableOwnerLib =
  | 'core'
  | 'members'
  | 'jobs'
  | 'places'
  | 'locations'
  | 'zones'
  | 'alerts'
  | 'webhooks'
  | 'dispatch'
  | 'reports'
  | 'database';

/**
 * Every table of the schema and the one lib that owns it: only that lib's repositories
 * (`<thing>.repository.ts`) write or read it; another lib reads it only in a read model
 * (`<owner>-<what>.read.ts`) whose docstring names it. Kept as JSON (`table-owners.json`) so the
 * lint rule `fieldwork/sql-owners` (`scripts/lint/eslint-plugin-fieldwork.cjs`) reads the same list;
 * an integration spec checks it against the migrated catalog (every table listed, none extra).
 * Monthly partitions of `location_fixes` (`location_fixes_YYYYMM`) belong to its owner.
 */
export const TABLE_OWNERS: Readonly<Record<string, TableOwnerLib>> = owners as Record<string, TableOwnerLib>;
