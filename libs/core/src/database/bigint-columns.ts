import { Column, ColumnOptions } from 'typeorm';
import { bigintMs } from '../time';

/** A bigint column's options less what the decorators below fix (`type`, `transformer`). */
export type BigintColumnOptions = Omit<ColumnOptions, 'type' | 'transformer'>;

/**
 * A `bigint` column of milliseconds (a timestamp since the epoch, or a duration), read as a JS
 * number: `pg` answers bigint as a string, `bigintMs` turns it into a number (exact below 2^53 ms,
 * year 287,396). The one way entities declare ms columns (`@MsColumn({ name: 'created_at' })`,
 * `@MsColumn({ default: 0 })`, `@MsColumn({ nullable: true })`).
 */
export function MsColumn(options: BigintColumnOptions = {}): PropertyDecorator {
  return Column({ ...options, type: 'bigint', transformer: bigintMs });
}

/**
 * A `bigint` column that is not a time (a count, another row's bigint id), read as a JS number like
 * {@link MsColumn}.
 */
export function BigintColumn(options: BigintColumnOptions = {}): PropertyDecorator {
  return Column({ ...options, type: 'bigint', transformer: bigintMs });
}
