import { StreamableFile } from '@nestjs/common';

/**
 * An answer already serialized as JSON text, sent as its UTF-8 bytes with
 * `Content-Type: application/json; charset=utf-8`: Nest pipes a `StreamableFile` as it is, so the
 * answer is not parsed, stringified or hashed again (Express's `res.json` would hash a large body for
 * an ETag no POST uses). `T` is the answer's shape: the response-schema generator documents a
 * handler answering `JsonAnswer<T>` as answering `T`. The caller guarantees `json` is `T`'s JSON.
 */
export class JsonAnswer<T> extends StreamableFile {
  /** `T`, for the type checker and the schema generator only (never set). */
  declare readonly shape?: T;

  constructor(json: string) {
    super(Buffer.from(json, 'utf8'), { type: 'application/json; charset=utf-8' });
  }
}
