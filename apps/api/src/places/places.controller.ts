import { AuthContext } from '@app/core';
import { CreatePlaceDto, DeletePlaceDto, EditPlaceDto, GetPlacesDto, PlacesService } from '@app/places';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** Place actions (spec "Places"; `editplace`'s shape and `deleteplace` per CONTRACTS.md). */
@Controller('api')
export class PlacesActionsController {
  constructor(private readonly places: PlacesService) {}

  @Action('createplace')
  async createplace(@Caller() ctx: AuthContext, @Data() dto: CreatePlaceDto) {
    return { status: 0, ...(await this.places.createPlace(ctx, dto)) };
  }

  @Action('getplaces')
  async getplaces(@Caller() ctx: AuthContext, @Data() dto: GetPlacesDto) {
    return { status: 0, places: await this.places.getPlaces(ctx, dto) };
  }

  @Action('editplace')
  async editplace(@Caller() ctx: AuthContext, @Data() dto: EditPlaceDto) {
    return { status: 0, places: await this.places.editPlaces(ctx, dto) };
  }

  @Action('deleteplace')
  async deleteplace(@Caller() ctx: AuthContext, @Data() dto: DeletePlaceDto) {
    return { status: 0, uids: await this.places.deletePlaces(ctx, dto.targets) };
  }
}
