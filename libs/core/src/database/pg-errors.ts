/** PostgreSQL SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * True when `err` is a unique violation (optionally of the named constraint or index) raised by
 * `pg`, directly or wrapped in TypeORM's QueryFailedError.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.driverError?.code;
  const name = e?.constraint ?? e?.driverError?.constraint;
  return code === UNIQUE_VIOLATION && (constraint === undefined || name === constraint);
}

/** True when `err` means PostgreSQL could not be reached (connection refused, reset, timeout). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string; driverError?: { code?: string } };
  const code = e?.code ?? e?.driverError?.code ?? '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P03', '08006', '08001', '08003'].includes(code)) {
    return true;
  }
  const msg = e?.message ?? '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(msg);
}
