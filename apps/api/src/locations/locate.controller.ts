import { AuthContext } from '@app/core';
import { LocateDto, LocateService, LocationRecord } from '@app/locations';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';
import { JsonAnswer } from '../envelope/json-answer';

/** `locate`'s answer. */
export interface LocateAnswer {
  status: 0;
  accounts: LocationRecord[];
}

/** `locate` (spec "Locate: POST /api/locate"). */
@Controller('api')
export class LocateController {
  constructor(private readonly locate: LocateService) {}

  /** Answered as UTF-8 bytes the service writes from records it keeps rendered (docs/locate.md, *The snapshot*). */
  @Action('locate')
  async locateMembers(@Caller() ctx: AuthContext, @Data() dto: LocateDto): Promise<JsonAnswer<LocateAnswer>> {
    return new JsonAnswer(await this.locate.locateUtf8(ctx, dto.query, '{"status":0,"accounts":', '}'));
  }
}
