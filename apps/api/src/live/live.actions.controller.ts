import { AuthContext, EmptyDto } from '@app/core';
import { StreamTokens } from '@app/live';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** createstreamtoken (CONTRACTS.md "Wave 3: live stream"): a token that starts `GET /v1/stream?token=` for 60 s. */
@Controller('api')
export class LiveActionsController {
  constructor(private readonly tokens: StreamTokens) {}

  @Action('createstreamtoken')
  async createstreamtoken(@Caller() ctx: AuthContext, @Data() _dto: EmptyDto) {
    const { token, expiresAt } = await this.tokens.issue(ctx.keyPrefix);
    return { status: 0, token, expiresAt };
  }
}
