import { AuthContext } from '@app/core';
import { CreatePlaceDto, DeletePlaceDto, EditPlaceDto, GetPlacesDto, PlacesService, PlaceView } from '@app/places';
import { PrerenderedJson } from '../envelope/prerendered-json';
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
  async getplaces(@Caller() ctx: AuthContext, @Data() dto: GetPlacesDto): Promise<PrerenderedJson<{ status: 0; places: PlaceView[] }>> {
    // rendered by PostgreSQL: the same answer as getPlaces' views, without parsing 500 rows and re-serialising them
    return new PrerenderedJson(`{"status":0,"places":${await this.places.getPlacesJson(ctx, dto)}}`);
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
