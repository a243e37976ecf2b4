import { Optional } from '@app/core';
import { IsIn, IsObject, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { SUBSCRIBABLE_EVENT_RULE, SUBSCRIBABLE_EVENTS } from '../subscriptions/subscription-events';

/**
 * `POST /v1/hooks` (REST hooks, CONTRACTS.md "Wave 3: connector for automation platforms"): the
 * event, the URL and custom headers. The URL's and the headers' rules (the nine keys' own: SSRF,
 * reserved names, sizes) are checked after these by `parseHookInput`, which knows `WEBHOOK_ALLOW_PRIVATE`.
 */
export class CreateHookBody {
  /** e.g. `jobcreated`, or `job_checked` for both of its actions */
  @JSONSchema({ example: 'jobcreated' })
  @IsIn(SUBSCRIBABLE_EVENTS as string[], { message: SUBSCRIBABLE_EVENT_RULE })
  event: string;

  /** e.g. `https://hooks.example.com/catch/123`; https only unless `WEBHOOK_ALLOW_PRIVATE=true` */
  @JSONSchema({
    example: 'https://hooks.example.com/catch/123',
    description:
      'an absolute https URL (http too with WEBHOOK_ALLOW_PRIVATE=true); no credentials; not localhost nor a private, loopback or reserved address',
  })
  @IsString()
  @MaxLength(2048)
  url: string;

  /** custom headers sent with every delivery, e.g. `{"Authorization": "Bearer …"}` (values answered masked) */
  @JSONSchema({
    example: { Authorization: 'Bearer 8f14e45fceea167a' },
    description:
      'at most 20 headers of at most 1 kB: RFC 7230 token names, no CR/LF; webhook-*, content-*, host and hop-by-hop names are reserved',
  })
  @Optional()
  @IsObject()
  headers?: Record<string, string>;
}
