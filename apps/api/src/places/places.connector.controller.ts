import { AuthContext, notFound } from '@app/core';
import {
  CONNECTOR_PLACES_LIMIT,
  connectorCreatePlace,
  connectorEditPlace,
  ConnectorPlace,
  ConnectorPlaceBody,
  connectorPlaceTarget,
  ConnectorPlacesQueryDto,
  PlacesService,
  toConnectorPlace,
  toConnectorPlaceError,
} from '@app/places';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Caller, ConnectorAuth, Examples } from '../envelope/decorators';
import { CREATE_PLACE, DELETE_PLACE, GET_PLACE, LIST_PLACES, PATCH_PLACE } from './places.connector.examples';

/** Runs a place write, its errors naming the connector's fields (`body.postalCode`, not `data.postalcode`). */
async function asConnector<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toConnectorPlaceError(err);
  }
}

/**
 * `/v1/places` (CONTRACTS.md "Wave 3: connector for automation platforms"; docs/connector.md "Places"):
 * the places actions' service behind REST routes, so roles (`workers_create_places`,
 * `workers_view_places`) and rules are createplace's, getplaces', editplace's and deleteplace's.
 */
@Controller('v1/places')
@ConnectorAuth()
export class PlacesConnectorController {
  constructor(private readonly places: PlacesService) {}

  @Get()
  @Examples(LIST_PLACES)
  async list(@Caller() ctx: AuthContext, @Query() q: ConnectorPlacesQueryDto): Promise<{ data: { items: ConnectorPlace[] } }> {
    const views = await this.places.listForConnector(ctx, {
      query: q.query,
      updatedSince: q.updatedSince,
      limit: Math.min(q.limit ?? CONNECTOR_PLACES_LIMIT, CONNECTOR_PLACES_LIMIT),
      skip: q.skip ?? 0,
    });
    return { data: { items: views.map(toConnectorPlace) } };
  }

  /** One live place the caller sees (getplaces by uid); unknown, deleted, unseen or another company's → 404. */
  @Get(':id')
  @Examples(GET_PLACE)
  async one(@Caller() ctx: AuthContext, @Param('id') id: string): Promise<{ data: { items: ConnectorPlace[] } }> {
    const [view] = await this.places.getPlaces(ctx, { uids: [id], max: 1 });
    if (!view) throw notFound(`${connectorPlaceTarget(id).field}: place ${id}`);
    return { data: { items: [toConnectorPlace(view)] } };
  }

  /** createplace: 201. */
  @Post()
  @Examples(CREATE_PLACE)
  async create(@Caller() ctx: AuthContext, @Body() body: ConnectorPlaceBody): Promise<{ data: { items: ConnectorPlace[] } }> {
    const { place } = await asConnector(() => this.places.createPlace(ctx, connectorCreatePlace(body)));
    return { data: { items: [toConnectorPlace(place)] } };
  }

  /** editplace on the path's place: only the fields sent change. */
  @Patch(':id')
  @HttpCode(200)
  @Examples(PATCH_PLACE)
  async patch(
    @Caller() ctx: AuthContext,
    @Param('id') id: string,
    @Body() body: ConnectorPlaceBody,
  ): Promise<{ data: { items: ConnectorPlace[] } }> {
    const [view] = await asConnector(() => this.places.editPlaces(ctx, connectorEditPlace(id, body)));
    return { data: { items: [toConnectorPlace(view)] } };
  }

  /** deleteplace (soft delete: jobs and reports that name the place still show it). */
  @Delete(':id')
  @HttpCode(200)
  @Examples(DELETE_PLACE)
  async remove(@Caller() ctx: AuthContext, @Param('id') id: string): Promise<{ data: { id: string; deleted: true } }> {
    await this.places.deletePlaces(ctx, [connectorPlaceTarget(id)]);
    return { data: { id, deleted: true } };
  }
}
