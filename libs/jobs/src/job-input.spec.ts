import { passesRules } from '@app/core';
import { validateSync } from 'class-validator';
import fc from 'fast-check';
import { CustomFieldDto, JobWriteDto } from './job-input';

const KEYS = Object.keys(new JobWriteDto()).concat(['bogus']);
const value = fc.oneof(
  fc.constantFrom(undefined, null, '', 0, 1, -1, 10, 11, 2400, 2359, 830, 960, 20261224, 20260230, 1.5, NaN, true, 'x'),
  fc.constantFrom('+386 40 123 456', 'a@b.test', 'not an email', 'https://x.test/a', 'ftp://x', 'x'.repeat(501), [], {}),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 12 }),
  fc.array(
    fc.oneof(
      fc.record({ key: fc.constantFrom('a', 'b_1', 'bad key', ''), val: fc.oneof(fc.string({ maxLength: 3 }), fc.constant(1)) }),
      fc.constantFrom(1, 'x', null),
    ),
    { maxLength: 3 },
  ),
);

/** A job write as parseJobWrite builds it: a JobWriteDto with the sent keys, customFields entries as CustomFieldDto. */
function dto(plain: Record<string, unknown>): JobWriteDto {
  const fields = Object.assign(new JobWriteDto(), plain);
  if (Array.isArray(plain.customFields)) {
    fields.customFields = plain.customFields.map((c: unknown) =>
      typeof c === 'object' && c !== null && !Array.isArray(c) ? Object.assign(new CustomFieldDto(), c) : (c as CustomFieldDto),
    );
  }
  return fields;
}

describe('passesRules on JobWriteDto', () => {
  it('answers exactly what validateSync (whitelist, forbidNonWhitelisted) answers', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 6 }), (plain) => {
        const fields = dto(plain);
        const errors = validateSync(fields, { whitelist: true, forbidNonWhitelisted: true });
        expect(passesRules(fields)).toBe(errors.length === 0);
      }),
      { numRuns: 3000, seed: 20261123 },
    );
  });

  it('accepts a realistic job and refuses each broken rule', () => {
    const good = dto({
      destinationName: 'Boiler',
      day: 20261224,
      windowStart: 800,
      windowEnd: 2400,
      contactEmail: 'a@b.test',
      contactPhone: '',
      customFields: [{ key: 'a', val: 'b' }],
    });
    expect(passesRules(good)).toBe(true);
    for (const bad of [
      { day: 20260230 },
      { windowStart: 2400 },
      { priority: 11 },
      { contactEmail: 'x' },
      { customFields: [{ key: 'bad key', val: '' }] },
      { zzz: 1 },
    ]) {
      expect(passesRules(dto(bad))).toBe(false);
    }
  });
});
