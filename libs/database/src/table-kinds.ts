import kinds from './table-kinds.json';

/**
 * Every table of the schema in one of the three kinds of CONTRACTS "Wave 3: scale", plus the tables
 * we do not own (docs/scaling.md, "Distributed PostgreSQL"). Kept as JSON (`table-kinds.json`) beside
 * `table-owners.json`; `scripts/check-distribution` checks the migrated catalog against it
 * ({@link checkDistribution}).
 */
export interface TableKinds {
  /**
   * Distributed by a company: table → its distribution column (`company_id`; `companies` is the
   * company itself, distributed by its own `id`). The column leads the primary key and every unique
   * index; foreign keys between them include it.
   */
  perCompany: Record<string, string>;
  /** Small and the same for every company (a copy on every node): table → why it is one. */
  reference: Record<string, string>;
  /**
   * Keys unique across the platform: table → what it maps. Narrow: the key (the primary key), the
   * row's `company_id` and `id`, optionally `created_at`; written in the same transaction as the row.
   */
  globalLookups: Record<string, string>;
  /** Tables of tools we use (TypeORM, PostGIS): table → whose and where it lives. Checked as reference tables. */
  external: Record<string, string>;
}

/** The kinds of today's schema (`table-kinds.json`). */
export const TABLE_KINDS: Readonly<TableKinds> = kinds;

/** One broken rule: the table and what is wrong, in words. */
export interface DistributionViolation {
  table: string;
  rule: string;
}

/** Runs one catalog query (a DataSource's `query`, or a pg client's wrapped to answer its rows). */
export type CatalogQuery = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

interface Column {
  table: string;
  name: string;
  notNull: boolean;
}

interface Index {
  table: string;
  name: string;
  primary: boolean;
  /** unique or exclusion: what Citus requires the distribution column in */
  unique: boolean;
  /** key columns in order; null for an expression */
  keys: Array<string | null>;
}

interface ForeignKey {
  table: string;
  name: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

const kindNames = { perCompany: 'per-company', reference: 'reference', globalLookups: 'global lookup', external: 'external' } as const;

/**
 * Checks the tables of `schema` (plain and partitioned; partitions count as their parent) against
 * `kinds`: every table listed in exactly one kind, every listed table present, and each kind's rule —
 * - per-company: the distribution column exists and is NOT NULL; it leads the primary key and every
 *   unique (or exclusion) index; a foreign key to another per-company table has it on both sides at the
 *   same position;
 * - reference and external: a primary key, no `company_id` column, no foreign key to a per-company
 *   table or a lookup;
 * - global lookup: a one-column primary key (the key, not `company_id`), `company_id` NOT NULL, and at
 *   most one other column (the row's id, NOT NULL) besides an optional `created_at`; no foreign keys.
 * @returns the violations, sorted by table (empty = the schema is ready to distribute)
 */
export async function checkDistribution(query: CatalogQuery, kinds: TableKinds, schema = 'public'): Promise<DistributionViolation[]> {
  const tables = (
    await query(
      `SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
      [schema],
    )
  ).map((r) => String(r.name));
  const columns = (await query(
    `SELECT c.relname AS "table", a.attname AS name, a.attnotnull AS "notNull"
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`,
    [schema],
  )) as unknown as Column[];
  const indexes = (await query(
    `SELECT c.relname AS "table", ic.relname AS name, i.indisprimary AS primary, (i.indisunique OR i.indisexclusion) AS unique,
            array(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, n)
                    LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                   WHERE k.n <= i.indnkeyatts ORDER BY k.n) AS keys
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    [schema],
  )) as unknown as Index[];
  const foreignKeys = (await query(
    `SELECT c.relname AS "table", k.conname AS name, r.relname AS "refTable",
            array(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY x(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = x.attnum ORDER BY x.n) AS columns,
            array(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY x(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = x.attnum ORDER BY x.n) AS "refColumns"
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND k.contype = 'f' AND NOT c.relispartition AND k.conparentid = 0`,
    [schema],
  )) as unknown as ForeignKey[];

  const out: DistributionViolation[] = [];
  const fail = (table: string, rule: string) => out.push({ table, rule });

  // listing: each table in exactly one kind, each listed table present
  const kindOf = new Map<string, keyof TableKinds>();
  for (const kind of Object.keys(kindNames) as Array<keyof TableKinds>) {
    for (const table of Object.keys(kinds[kind])) {
      const other = kindOf.get(table);
      if (other) fail(table, `listed as both ${kindNames[other]} and ${kindNames[kind]} in table-kinds.json`);
      else kindOf.set(table, kind);
    }
  }
  const present = new Set(tables);
  for (const table of tables)
    if (!kindOf.has(table)) fail(table, 'not listed in table-kinds.json (per-company, reference, global lookup or external)');
  for (const [table, kind] of kindOf)
    if (!present.has(table)) fail(table, `listed as ${kindNames[kind]} in table-kinds.json but not in schema "${schema}"`);

  const colsOf = (t: string) => columns.filter((c) => c.table === t);
  const show = (keys: Array<string | null>) => `(${keys.map((k) => k ?? '<expression>').join(', ')})`;
  for (const table of tables) {
    const kind = kindOf.get(table);
    if (!kind) continue;
    const cols = colsOf(table);
    const idx = indexes.filter((i) => i.table === table);
    const pk = idx.find((i) => i.primary);
    const fks = foreignKeys.filter((f) => f.table === table);
    if (kind === 'perCompany') {
      const by = kinds.perCompany[table];
      const col = cols.find((c) => c.name === by);
      if (!col) fail(table, `per-company table has no column ${by}`);
      else if (!col.notNull) fail(table, `per-company table's ${by} is nullable`);
      if (!pk) fail(table, `per-company table has no primary key`);
      for (const i of idx.filter((x) => x.unique)) {
        if (i.keys[0] !== by)
          fail(table, `${i.primary ? 'primary key' : 'unique index'} ${i.name} ${show(i.keys)} does not lead with ${by}`);
      }
      for (const f of fks) {
        const refKind = kindOf.get(f.refTable);
        if (refKind === 'reference' || refKind === 'external') continue;
        if (refKind !== 'perCompany') {
          fail(table, `foreign key ${f.name} references ${f.refTable}, which is not a per-company or reference table`);
          continue;
        }
        const refBy = kinds.perCompany[f.refTable];
        const at = f.columns.indexOf(by);
        if (at < 0 || f.refColumns[at] !== refBy) {
          fail(
            table,
            `foreign key ${f.name} (${f.columns.join(', ')}) → ${f.refTable} (${f.refColumns.join(', ')}) does not pair ${by} with ${f.refTable}.${refBy}`,
          );
        }
      }
    } else if (kind === 'reference' || kind === 'external') {
      if (!pk) fail(table, `${kindNames[kind]} table has no primary key`);
      if (cols.some((c) => c.name === 'company_id'))
        fail(table, `${kindNames[kind]} table has a company_id column: a table of one company's rows is per-company`);
      for (const f of fks) {
        const refKind = kindOf.get(f.refTable);
        if (refKind !== 'reference' && refKind !== 'external')
          fail(table, `foreign key ${f.name} from a ${kindNames[kind]} table references ${f.refTable}, which is not a reference table`);
      }
    } else {
      if (!pk || pk.keys.length !== 1 || pk.keys[0] === null || pk.keys[0] === 'company_id') {
        fail(table, `global lookup's primary key must be its one key column, not ${pk ? show(pk.keys) : 'missing'}`);
      }
      const company = cols.find((c) => c.name === 'company_id');
      if (!company) fail(table, 'global lookup has no company_id column');
      else if (!company.notNull) fail(table, "global lookup's company_id is nullable");
      const rest = cols.filter((c) => c.name !== pk?.keys[0] && c.name !== 'company_id' && c.name !== 'created_at');
      if (rest.length > 1) {
        fail(
          table,
          `global lookup is too wide: columns ${rest.map((c) => c.name).join(', ')} where only the row's id belongs (beside the key, company_id and created_at)`,
        );
      } else if (rest.length === 0) fail(table, "global lookup has no column for the row's id");
      else if (!rest[0].notNull) fail(table, `global lookup's ${rest[0].name} is nullable`);
      for (const f of fks)
        fail(table, `global lookup has a foreign key ${f.name}: lookups are distributed by their key, apart from the rows they name`);
    }
  }
  return out.sort((a, b) => a.table.localeCompare(b.table) || a.rule.localeCompare(b.rule));
}
