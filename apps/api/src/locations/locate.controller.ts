import { AuthContext } from '@app/core';
import { LocateService, LocationRecord } from '@app/locations';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';
import { PrerenderedJson } from '../envelope/prerendered-json';
import { LocateDto } from './locate.dto';

/** `locate`'s answer. */
export interface LocateAnswer {
  status: 0;
  accounts: LocationRecord[];
}

/** `locate` (spec "Locate: POST /api/locate"). */
@Controller('api')
export class LocateController {
  constructor(private readonly locate: LocateService) {}

  /** The plain call (what a dashboard polls) is rendered by PostgreSQL; with addresses, details or ping, here. */
  @Action('locate')
  async locateMembers(@Caller() ctx: AuthContext, @Data() dto: LocateDto): Promise<LocateAnswer | PrerenderedJson<LocateAnswer>> {
    const q = dto.query;
    if (LocateService.rendersInDatabase(q)) return new PrerenderedJson(`{"status":0,"accounts":${await this.locate.locateJson(ctx, q)}}`);
    return { status: 0, accounts: await this.locate.locate(ctx, q) };
  }
}
