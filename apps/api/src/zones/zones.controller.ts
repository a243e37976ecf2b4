import { AuthContext } from '@app/core';
import { CreateZoneDto, DeleteZoneDto, EditZoneDto, GetZonesDto, ZonesService } from '@app/zones';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** Zone actions (our extension; CONTRACTS.md "Alerts and zones", answers as pinned there). */
@Controller('api')
export class ZonesActionsController {
  constructor(private readonly zones: ZonesService) {}

  @Action('createzone')
  async createzone(@Caller() ctx: AuthContext, @Data() dto: CreateZoneDto) {
    return { status: 0, ...(await this.zones.createZone(ctx, dto)) };
  }

  @Action('getzones')
  async getzones(@Caller() ctx: AuthContext, @Data() dto: GetZonesDto) {
    return { status: 0, zones: await this.zones.getZones(ctx, dto) };
  }

  @Action('editzone')
  async editzone(@Caller() ctx: AuthContext, @Data() dto: EditZoneDto) {
    return { status: 0, zone: await this.zones.editZone(ctx, dto) };
  }

  @Action('deletezone')
  async deletezone(@Caller() ctx: AuthContext, @Data() dto: DeleteZoneDto) {
    await this.zones.deleteZones(ctx, dto.targets);
    return { status: 0 };
  }
}
