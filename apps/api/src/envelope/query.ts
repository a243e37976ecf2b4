import { Transform } from 'class-transformer';

/** Strict query integer: only a string of digits converts; anything else stays and fails IsInt. */
export const QueryInt = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value));

/** Strict query boolean: only `true|false|1|0` convert; anything else stays and fails IsBoolean. */
export const QueryBool = () =>
  Transform(({ value }) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value));
