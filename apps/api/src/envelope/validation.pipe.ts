import { CompletesValidation, invalidAll, memoizeValidationMetadata, passesRules, validationIssues, VERBATIM } from '@app/core';
import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { isScannedPlain } from './request-context';
import { ClassConstructor, ClassTransformOptions, classToPlain, plainToInstance } from 'class-transformer';

/** Whether a validated DTO has a `CompletesValidation` step (the DTO markers of `libs/core/src/validation/dto-markers.ts`). */
const completesValidation = (v: unknown): v is CompletesValidation =>
  typeof v === 'object' && v !== null && typeof (v as Partial<CompletesValidation>).completeValidation === 'function';

/** class-transformer, with `Verbatim` properties (`@app/core`'s DTO markers) passed through uncopied. */
const transformer = {
  classToPlain,
  plainToInstance<T>(cls: ClassConstructor<T>, plain: unknown, options?: ClassTransformOptions): T {
    const verbatim = Reflect.getMetadata(VERBATIM, cls.prototype as object) as string[] | undefined;
    if (!verbatim || typeof plain !== 'object' || plain === null || Array.isArray(plain)) return plainToInstance(cls, plain, options);
    const rest: Record<string, unknown> = { ...(plain as Record<string, unknown>) };
    const kept: Record<string, unknown> = {};
    for (const key of verbatim) {
      if (key in rest) kept[key] = rest[key];
      delete rest[key];
    }
    return Object.assign(plainToInstance(cls, rest, options) as object, kept) as T;
  },
};

class ValidationFailed extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('validation failed');
  }
}

/**
 * The one validation pipe (STYLE.md §2): class-validator DTOs, whitelisting, unknown keys refused,
 * no implicit type conversion. Errors name each field with its path: `data.<field>` for action
 * data, `query.<param>` for connector query strings, `body.<field>` for connector bodies.
 *
 * Hot path (issue #29): a DTO that passes is recognised by `passesRules` (class-validator's own rule
 * functions, read from its metadata once per class) without class-validator's executor, which
 * builds an error object per property even when all pass; anything else — a failure, a class
 * `passesRules` does not model — goes to class-validator, so every error text is class-validator's.
 * class-validator's metadata lookups are cached ({@link memoizeValidationMetadata}).
 */
@Injectable()
export class EnvelopeValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: false, // data is checked to be an object by the guard; EmptyDto has no rules
      validateCustomDecorators: true,
      transformOptions: { enableImplicitConversion: false, exposeDefaultValues: true },
      exceptionFactory: (errors) => new ValidationFailed(errors),
      transformerPackage: transformer,
    });
    memoizeValidationMetadata();
  }

  /**
   * No errors when `passesRules` says the DTO passes (it models exactly these options: whitelist,
   * forbidNonWhitelisted, no groups); class-validator's errors otherwise.
   */
  protected override validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> | ValidationError[] {
    return passesRules(object) ? [] : super.validate(object, options);
  }

  /**
   * Nest's walk deleting `__proto__`, `prototype` and `constructor` keys, skipped for a value the
   * guard scanned and found plain ({@link isScannedPlain}): it would delete nothing. A 1,000-job
   * createjobs `data` is 1,000 objects to walk (~2 ms a call in the bench's profile).
   */
  protected override stripProtoKeys(value: unknown): void {
    if (!isScannedPlain(value)) super.stripProtoKeys(value);
  }

  /** Nest's walk closing sparse arrays' gaps, skipped for a value the guard scanned and found plain (it has none). */
  protected override closeArrayGaps(value: unknown): void {
    if (!isScannedPlain(value)) super.closeArrayGaps(value);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const prefix = metadata.type === 'custom' ? 'data' : metadata.type === 'query' ? 'query' : metadata.type === 'param' ? 'path' : 'body';
    let out: unknown;
    try {
      out = await super.transform(value, metadata);
    } catch (err) {
      if (!(err instanceof ValidationFailed)) throw err;
      throw invalidAll(validationIssues(err.errors, prefix), prefix);
    }
    if (completesValidation(out)) out.completeValidation(prefix);
    return out;
  }
}
