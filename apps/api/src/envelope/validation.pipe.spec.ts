import 'reflect-metadata';
import { CreateJobsDto, GetJobsDto } from '@app/jobs';
import { CreateAccountDto, EditAccountDto, EditCompanyDto } from '@app/members';
import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import * as classValidator from 'class-validator';
import { validate, ValidatorOptions } from 'class-validator';
import fc from 'fast-check';
import { isScannedPlain, unstorableIssue } from './request-context';
import { EnvelopeValidationPipe } from './validation.pipe';

/** The pipe as it was before its fast path: every DTO through class-validator's executor. */
class ClassValidatorOnly extends EnvelopeValidationPipe {
  protected override validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> {
    return validate(object, options);
  }
}

const fast = new EnvelopeValidationPipe();
const reference = new ClassValidatorOnly();

/** What a pipe made of `value`: the DTO's class and own properties, or the error it threw. */
async function outcome(pipe: EnvelopeValidationPipe, metatype: new () => object, value: unknown): Promise<unknown> {
  const metadata: ArgumentMetadata = { type: 'custom', metatype, data: undefined };
  try {
    const out = (await pipe.transform(structuredClone(value), metadata)) as object;
    return { class: out.constructor.name, value: JSON.parse(JSON.stringify(out)) as unknown };
  } catch (err) {
    return { error: (err as Error).message, kind: (err as { kind?: string }).kind };
  }
}

const scalar = fc.oneof(
  fc.constantFrom(undefined, null, '', 0, 1, -1, 2, 20261224, 20260230, 1.5, true, false, '*', '+', 'x', 'tsCreated', 'priority', 'nope'),
  fc.integer(),
  fc.string({ maxLength: 8 }),
);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
const sort = fc.dictionary(fc.constantFrom('field', 'ascending', 'limit', 'skip', 'from', 'until', 'status', 'bogus'), value, { maxKeys: 4 });
const getJobsKeys = ['id', 'ids', 'day', 'worker', 'team', 'orderId', 'orderIds', 'progressSuccess', 'progressActive', 'includeArchived'];
const getJobsData = fc
  .record({
    fields: fc.dictionary(fc.constantFrom(...getJobsKeys, 'compact', 'templates', 'bogus'), value, { maxKeys: 5 }),
    sort: fc.option(fc.oneof(sort, scalar), { nil: undefined }),
  })
  .map(({ fields, sort: s }) => (s === undefined ? fields : { ...fields, sort: s }));

describe('EnvelopeValidationPipe (the passesRules fast path)', () => {
  it('answers exactly what class-validator alone answers: the same DTO or the same error text (getjobs data)', async () => {
    await fc.assert(
      fc.asyncProperty(getJobsData, async (data) => {
        expect(await outcome(fast, GetJobsDto, data)).toEqual(await outcome(reference, GetJobsDto, data));
      }),
      { numRuns: 2000, seed: 20261128 },
    );
  });

  it('the same for member and company DTOs (inheritance, ValidateIf, nested objects)', async () => {
    const keys = ['name', 'username', 'password', 'role', 'teams', 'phone', 'email', 'timezone', 'language', 'uid', 'bogus'];
    const data = fc.dictionary(fc.constantFrom(...keys), fc.oneof(value, fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 2 })), {
      maxKeys: 5,
    });
    for (const dto of [CreateAccountDto, EditAccountDto, EditCompanyDto]) {
      await fc.assert(
        fc.asyncProperty(data, async (d) => {
          expect(await outcome(fast, dto, d)).toEqual(await outcome(reference, dto, d));
        }),
        { numRuns: 500, seed: 20261128 },
      );
    }
  });

  it('a valid getjobs request passes without class-validator’s executor; an invalid one still names the field', async () => {
    expect(await outcome(fast, GetJobsDto, { day: 20261224, worker: 'w@x.test', sort: { field: 'priority', limit: 5 } })).toEqual({
      class: 'GetJobsDto',
      value: { day: 20261224, worker: 'w@x.test', sort: { field: 'priority', limit: 5 } },
    });
    const executor = jest.spyOn(classValidator, 'validate');
    await outcome(fast, GetJobsDto, { day: 20261224, worker: 'w@x.test' });
    expect(executor).not.toHaveBeenCalled();
    await outcome(fast, GetJobsDto, { day: 20260230 });
    expect(executor).toHaveBeenCalledTimes(1);
    executor.mockRestore();
    expect(await outcome(fast, GetJobsDto, { day: 20260230 })).toMatchObject({ error: expect.stringContaining('data.day') as unknown });
    expect(await outcome(fast, GetJobsDto, { sort: { limit: 0 } })).toMatchObject({ error: expect.stringContaining('data.sort.limit') as unknown });
  });
});

describe("EnvelopeValidationPipe: Nest's own walks over a value the guard scanned", () => {
  const pipe = new EnvelopeValidationPipe();
  const metadata: ArgumentMetadata = { type: 'custom', metatype: CreateJobsDto, data: undefined };
  const proto = ValidationPipe.prototype as unknown as Record<'stripProtoKeys' | 'closeArrayGaps', (v: unknown) => void>;
  let strip: jest.SpyInstance;
  let close: jest.SpyInstance;
  beforeEach(() => {
    strip = jest.spyOn(proto, 'stripProtoKeys');
    close = jest.spyOn(proto, 'closeArrayGaps');
  });
  afterEach(() => jest.restoreAllMocks());

  it('skips both for data scanned plain, and answers the same writes', async () => {
    const data = { jobs: [{ destinationName: 'Kovač' }, { destinationName: 'b', customFields: [{ key: 'gate', val: '4' }] }] };
    const unscanned = structuredClone(data);
    expect(unstorableIssue(data, 'data')).toBeNull();
    expect(isScannedPlain(data)).toBe(true);
    const out = (await pipe.transform(data, metadata)) as CreateJobsDto;
    expect(strip).not.toHaveBeenCalled();
    expect(close).not.toHaveBeenCalled();
    const again = (await pipe.transform(unscanned, metadata)) as CreateJobsDto;
    expect(strip).toHaveBeenCalled();
    expect(close).toHaveBeenCalled();
    expect(out.writes).toEqual(again.writes);
  });

  it("keeps Nest's walks where they change something: a key `prototype` is stripped, a sparse array closed", async () => {
    const withPrototype = { jobs: [{ destinationName: 'a', prototype: 1 }] };
    expect(unstorableIssue(withPrototype, 'data')).toBeNull();
    expect(isScannedPlain(withPrototype)).toBe(false);
    expect(((await pipe.transform(withPrototype, metadata)) as CreateJobsDto).writes).toHaveLength(1);

    // eslint-disable-next-line no-sparse-arrays
    const sparse = { jobs: [, { destinationName: 'b' }] };
    expect(unstorableIssue(sparse, 'data')).toBeNull();
    expect(isScannedPlain(sparse)).toBe(false);
    const out = (await pipe.transform(sparse, metadata)) as CreateJobsDto;
    expect(out.writes.map((w) => w.path)).toEqual(['data.jobs[0]']);
  });

  it('remembers nothing for a value with a problem, a scalar, or an object it never scanned', () => {
    const bad = { jobs: [{ toString: 1 }] };
    expect(unstorableIssue(bad, 'data')).toEqual({ field: 'data.jobs[0].toString', rule: 'unknown field' });
    expect(isScannedPlain(bad)).toBe(false);
    expect(unstorableIssue('x', 'data')).toBeNull();
    expect(isScannedPlain('x')).toBe(false);
    expect(isScannedPlain({ jobs: [] })).toBe(false);
  });
});
