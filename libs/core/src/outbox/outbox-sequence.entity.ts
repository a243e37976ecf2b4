import { Entity, PrimaryColumn } from 'typeorm';
import { BigintColumn, MsColumn } from '../database/bigint-columns';

/**
 * Each company's event sequence: the last `seq` stamped on its outbox events. Its row is the
 * stamper's lock — one stamper per company at a time (docs/live.md, "Stamping").
 */
@Entity('outbox_sequences')
export class OutboxSequence {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  /** the highest `seq` stamped (0 before the first) */
  @BigintColumn({ name: 'last_seq', default: 0 })
  lastSeq: number;

  /**
   * ms: the stamp of the last stamping — greatest(itself, the database clock once the row is locked),
   * so never decreasing; events' `stamped_at` and stamped tables' rows take it (docs/connector.md)
   */
  @MsColumn({ name: 'stamped_at', default: 0 })
  stampedAt: number;
}
