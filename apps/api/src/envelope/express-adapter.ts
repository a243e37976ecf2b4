import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { Response } from 'express';
import { JsonAnswer, sendJsonText, sendsJsonWithoutEtag } from './json-answer';

/**
 * Nest's Express adapter, answering JSON without Express's ETag where no client can use one
 * ({@link sendsJsonWithoutEtag}: every method but GET and HEAD):
 * - a {@link JsonAnswer} is sent as its text ({@link sendJsonText}), whatever the method;
 * - a handler's object answer to a POST (every action) or another non-GET request is serialized
 *   with `JSON.stringify` — what `res.json` does, the api setting no `json replacer`/`spaces`/`escape`
 *   — and sent with the same Content-Type and Content-Length, without the sha1 ETag.
 * Everything else (GET/HEAD answers, files and streams, an Error body, 204/205/304, a Content-Type
 * or Transfer-Encoding the handler set itself) goes through Nest's own `reply` unchanged.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body instanceof JsonAnswer) return sendJsonText(response, body.json, statusCode);
    if (
      typeof body === 'object' &&
      body !== null &&
      !(body instanceof Error) &&
      !(body instanceof StreamableFile) &&
      !ArrayBuffer.isView(body) &&
      sendsJsonWithoutEtag(response, statusCode ?? response.statusCode)
    ) {
      return sendJsonText(response, JSON.stringify(body), statusCode);
    }
    return super.reply(response, body, statusCode);
  }
}
