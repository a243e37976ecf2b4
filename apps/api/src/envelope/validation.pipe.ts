import { formatValidationErrors, invalid } from '@app/core';
import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';

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
    try {
      return await super.transform(value, metadata);
    } catch (err) {
      if (!(err instanceof ValidationFailed)) throw err;
      const prefix =
        metadata.type === 'custom' ? 'data' : metadata.type === 'query' ? 'query' : metadata.type === 'param' ? 'path' : 'body';
      const lines = formatValidationErrors(err.errors, prefix);
      const first = lines[0] ?? `${prefix}: invalid`;
      const sep = first.indexOf(': ');
      const e = invalid(first.slice(0, sep), first.slice(sep + 2));
      if (lines.length > 1) e.message = lines.join('; ');
      throw e;
    }
  }
}
