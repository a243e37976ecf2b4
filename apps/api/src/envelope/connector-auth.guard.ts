import { DomainError, invalid, notFound } from '@app/core';
import { ApiKeysService } from '@app/members';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RateLimitService } from '../ops/rate-limit.service';
import { ApiRequest, isPlainObject, isUsableId, unstorableIssue } from './request-context';

/**
 * Connector (`/v1`) authentication: the `API-Key` header only. Missing or invalid → 401. Then, before
 * any handler: a path id that cannot be an id (empty, over 64 characters, a NUL byte) → 404 like any
 * unknown id; a body that is JSON but not an object → 400; values PostgreSQL can't store → 400.
 */
@Injectable()
export class ConnectorAuthGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly rateLimit: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const header = req.headers['api-key'];
    req.auth = await this.rateLimit.authenticated(() => req.ip, async () => {
      if (typeof header !== 'string' || header === '') throw new DomainError('unauthenticated', 'missing API-Key header');
      return this.apiKeys.authenticate(header);
    });
    for (const [name, value] of Object.entries(req.params ?? {})) {
      if (!isUsableId(value)) throw notFound(`${name} ${JSON.stringify(String(value).slice(0, 64))}`);
    }
    if (req.body !== undefined && !isPlainObject(req.body)) throw invalid('body', 'must be a JSON object');
    const problem = unstorableIssue(req.query, 'query') ?? unstorableIssue(req.body, 'body');
    if (problem) throw invalid(problem.field, problem.rule);
    return true;
  }
}
