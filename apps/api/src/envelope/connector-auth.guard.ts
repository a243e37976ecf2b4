import { DomainError, invalid } from '@app/core';
import { ApiKeysService } from '@app/members';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RateLimitService } from '../ops/rate-limit.service';
import { ApiRequest, unstorableIssue } from './request-context';

/** Connector (`/v1`) authentication: the `API-Key` header only. Missing or invalid → 401. */
@Injectable()
export class ConnectorAuthGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly rateLimit: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const header = req.headers['api-key'];
    req.auth = await this.rateLimit.authenticated(req.ip, async () => {
      if (typeof header !== 'string' || header === '') throw new DomainError('unauthenticated', 'missing API-Key header');
      return this.apiKeys.authenticate(header);
    });
    const problem = unstorableIssue(req.query, 'query') ?? unstorableIssue(req.body, 'body');
    if (problem) throw invalid(problem.field, problem.rule);
    return true;
  }
}
