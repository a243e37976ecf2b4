import { StreamableFile } from '@nestjs/common';

/**
 * An action's answer already rendered as JSON text (e.g. by PostgreSQL), sent as it is with
 * `Content-Type: application/json; charset=utf-8` instead of through `JSON.stringify`. `T` is the
 * answer's shape: the OpenAPI generator documents a handler returning `T | PrerenderedJson<T>` as `T`
 * (apps/api/src/docs/response-schemas.generator.ts), so the text must be that shape's JSON.
 * A `StreamableFile` underneath, which Nest's express adapter sends with its type and length.
 */
export class PrerenderedJson<T> extends StreamableFile {
  /** The documented shape (type only). */
  declare readonly answer?: T;

  constructor(json: string) {
    const body = Buffer.from(json, 'utf8');
    super(body, { type: 'application/json; charset=utf-8', length: body.length });
  }
}
