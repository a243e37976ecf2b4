import { DomainError } from '@app/core/pure';
import { PDF_MAX_ROWS } from './report-types';

/** The pdf row limit as the client gets it (CONTRACTS.md "Reports"): -1 naming `data.format`. */
export function tooManyRowsForPdf(rows: number): DomainError {
  return new DomainError('invalid', `data.format: too many rows for pdf (${rows} > ${PDF_MAX_ROWS}): use xlsx or csv`, 'data.format', 'row limit');
}
