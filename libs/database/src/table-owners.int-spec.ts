import { DataSource } from 'typeorm';
import { openIntegrationDb } from '@test/support/integration';
import { TABLE_OWNERS } from './table-owners';

describe('table owners against the migrated catalog', () => {
  let ds: DataSource;
  beforeAll(async () => (ds = await openIntegrationDb()));
  afterAll(() => ds.destroy());

  it('lists every table of the schema (partitions under their parent) and no table that is not there', async () => {
    const rows: Array<{ name: string }> = await ds.query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND c.relname NOT IN ('spatial_ref_sys')`,
    );
    expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(TABLE_OWNERS).sort());
  });
});
