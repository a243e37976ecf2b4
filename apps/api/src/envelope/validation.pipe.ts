import { CompletesValidation, invalidAll, validationIssues, VERBATIM } from '@app/core';
import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
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
