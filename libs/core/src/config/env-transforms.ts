/** class-transformer `@Transform`s of environment strings (env.ts, stream-env.ts). */

/** `true`/`1` → true, `false`/`0` → false, empty → undefined (the default); anything else is left for `IsBoolean` to name. */
export const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1' || value === true) return true;
  if (value === 'false' || value === '0' || value === false) return false;
  return value; // left as is: IsBoolean names it
};

/** An integer string → its number, empty → undefined (the default); anything else is left for `IsInt` to name. */
export const toInt = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  return /^-?\d+$/.test(String(value)) ? Number(value) : value;
};
