import { invalid } from '@app/core';
import { CreateHookBody } from '../dto/hooks.dto';
import { headersProblem } from '../header-rules';
import { configUrlProblem } from '../url-safety';

/** A subscription to make: its body checked against every rule. */
export interface HookInput {
  event: string;
  url: string;
  headers: Record<string, string>;
}

/**
 * The URL and header rules of the nine keys (CONTRACTS.md "Configuration", "SSRF") on a create
 * body whose fields passed their DTO rules.
 * @throws DomainError invalid naming `body.url` or `body.headers` and the rule broken.
 */
export function parseHookInput(body: CreateHookBody, allowPrivate: boolean): HookInput {
  const urlProblem = configUrlProblem(body.url, allowPrivate);
  if (urlProblem) throw invalid('body.url', urlProblem);
  const headers = body.headers ?? {};
  const headerProblem = headersProblem(headers);
  if (headerProblem) throw invalid('body.headers', headerProblem);
  return { event: body.event, url: body.url, headers };
}
