import { DomainError, invalid } from '@app/core';
import { StreamTokens } from '@app/live';
import { ApiKeysService } from '@app/members';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { RateLimitService } from '../ops/rate-limit.service';
import { ApiRequest, unstorableIssue } from '../envelope/request-context';

/**
 * `GET /v1/stream` authentication (CONTRACTS.md "Wave 3: live stream"): `?token=` from
 * `createstreamtoken` when sent (an EventSource can't send headers), else the `API-Key` header. A
 * missing, bad or expired credential → 401 in the connector shape. Starting a stream costs one
 * request of the key's rate budget (a token's: the key it was made with).
 */
@Injectable()
export class StreamAuthGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly tokens: StreamTokens,
    private readonly rateLimit: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const token = req.query?.token;
    const header = req.headers['api-key'];
    req.auth = await this.rateLimit.authenticated(() => req.ip, async () => {
      if (token !== undefined) {
        if (typeof token !== 'string' || token === '') throw new DomainError('unauthenticated', 'invalid stream token');
        return this.apiKeys.authenticatePrefix(await this.tokens.keyPrefixOf(token));
      }
      if (typeof header !== 'string' || header === '') throw new DomainError('unauthenticated', 'missing API-Key header or token');
      return this.apiKeys.authenticate(header);
    });
    const problem = unstorableIssue(req.query, 'query');
    if (problem) throw invalid(problem.field, problem.rule);
    return true;
  }
}
