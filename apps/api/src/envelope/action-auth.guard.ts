import { DomainError, invalid, mayCallAction } from '@app/core';
import { ApiKeysService } from '@app/members';
import { RateLimitService } from '../ops/rate-limit.service';
import { ACTION_ROLES, ActionName } from './action-roles';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ACTION_NAME, ApiRequest, isPlainObject, unstorableIssue } from './request-context';

/**
 * The action envelope, checked in CONTRACTS.md's order (malformed JSON was refused by the body
 * parser): authentication (header `API-Key` or body `auth: {usr, key}`) → unknown action (the
 * fallback controller, which runs this guard without an action name) → a body that is JSON but not
 * an object → `ver` → role → `data`.
 */
@Injectable()
export class ActionAuthGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly reflector: Reflector,
    private readonly rateLimit: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const body: unknown = req.body;

    const header = req.headers['api-key'];
    const headerKey = typeof header === 'string' && header !== '' ? header : undefined;
    const auth = isPlainObject(body) && isPlainObject(body.auth) ? body.auth : undefined;
    const bodyKey = typeof auth?.key === 'string' && auth.key !== '' ? auth.key : undefined;
    if (headerKey && bodyKey && headerKey !== bodyKey) {
      await this.rateLimit.chargeIp(req.ip ?? 'unknown');
      throw new DomainError('auth_mismatch', 'the API-Key header and auth.key name different keys');
    }
    req.auth = await this.rateLimit.authenticated(() => req.ip, async () => {
      const key = headerKey ?? bodyKey;
      if (!key) throw new DomainError('unauthenticated', 'missing API key: send the API-Key header or auth.key');
      const usr = auth?.usr;
      if (usr !== undefined && typeof usr !== 'string') throw new DomainError('auth_mismatch', 'auth.usr does not match the API key');
      return this.apiKeys.authenticate(key, usr);
    });

    const action = this.reflector.get<ActionName | undefined>(ACTION_NAME, context.getHandler());
    if (!action) return true; // the unknown-action fallback answers 1001

    if (!isPlainObject(body)) throw invalid('body', 'must be a JSON object {data, auth?, ver?}');
    const ver = body.ver;
    if (ver !== undefined && ver !== 1 && ver !== 2) throw invalid('ver', 'unsupported ver: send the integer 1 or 2, or leave it out');
    req.ver = (ver ?? 2) as 1 | 2;
    if (!mayCallAction(ACTION_ROLES, req.auth.role, action))
      throw new DomainError('forbidden', `a ${req.auth.role} may not call ${action}`);
    if (!isPlainObject(body.data)) throw invalid('data', 'is required and must be an object');
    const problem = unstorableIssue(body.data, 'data');
    if (problem) throw invalid(problem.field, problem.rule);
    return true;
  }
}
