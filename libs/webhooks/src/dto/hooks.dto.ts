import { Optional } from '@app/core';
import { IsIn, IsObject, IsString, MaxLength } from 'class-validator';
import { SUBSCRIBABLE_EVENT_RULE, SUBSCRIBABLE_EVENTS } from '../subscriptions/subscription-events';

/**
 * `POST /v1/hooks` (REST hooks, CONTRACTS.md "Wave 3: connector for automation platforms"): the
 * event, the URL and custom headers. The URL's and the headers' rules (the nine keys' own: SSRF,
 * reserved names, sizes) are checked after these by `parseHookInput`, which knows `WEBHOOK_ALLOW_PRIVATE`.
 */
export class CreateHookBody {
  /** e.g. `jobcreated`, or `job_checked` for both of its actions */
  @IsIn(SUBSCRIBABLE_EVENTS as string[], { message: SUBSCRIBABLE_EVENT_RULE })
  event: string;

  /** e.g. `https://hooks.example.com/catch/123`; https only unless `WEBHOOK_ALLOW_PRIVATE=true` */
  @IsString()
  @MaxLength(2048)
  url: string;

  /** custom headers sent with every delivery, e.g. `{"Authorization": "Bearer …"}` (values answered masked) */
  @Optional()
  @IsObject()
  headers?: Record<string, string>;
}
