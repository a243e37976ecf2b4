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

  /** Answered as JSON text the service joins from records it keeps rendered (docs/locate.md, *The snapshot*). */
  @Action('locate')
  async locateMembers(@Caller() ctx: AuthContext, @Data() dto: LocateDto): Promise<JsonAnswer<LocateAnswer>> {
    return new JsonAnswer(`{"status":0,"accounts":${await this.locate.locateJson(ctx, dto.query)}}`);
  }
}
