import { invalidAll, validationIssues } from '@app/core';
import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';

/**
 * A DTO with a step after its rules pass: it turns wire fields it only checked for shape into typed
 * values (createjobs' `jobs` → `JobWrite[]`), so the service takes the typed write and never
 * re-parses. `prefix` is the path its errors name (`data`); it throws DomainError.
 */
export interface CompletesValidation {
  completeValidation(prefix: string): void;
}

const completesValidation = (v: unknown): v is CompletesValidation =>
  typeof v === 'object' && v !== null && typeof (v as Partial<CompletesValidation>).completeValidation === 'function';

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
