import { AuthContext, DomainError, invalid, newId, notFound, Queryable, toPoint } from '@app/core';
import { CompanyService, MembersService } from '@app/members';
import { Injectable } from '@nestjs/common';
import { CreatePlaceDto, DEFAULT_PLACES_MAX, EditPlaceDto, GetPlacesDto, PlaceTarget, PlaceWritableFields } from './dto/place.dto';
import { Geocoder } from './geocoder.service';
import { NearestPlacesReader } from './locations-nearest-places.read';
import { PlaceViewsReader } from './members-place-views.read';
import { placeVisibility, placeWriteDenial, PlaceWriteAction } from './place-policy';
import { PlaceView, toPlaceRowView } from './place-view';
import { ConnectorPlacesFilter, PlacePatch, PlacesRepository } from './places.repository';

/**
 * Places: the actions (createplace, getplaces, editplace, deleteplace; CONTRACTS.md "Places,
 * check-ins, clock") and the lookups other domains need (jobs check `placeUid` here). Every query
 * is scoped by the caller's company; another company's places behave as unknown ids.
 */
@Injectable()
export class PlacesService {
  constructor(
    private readonly repo: PlacesRepository,
    private readonly views: PlaceViewsReader,
    private readonly nearest: NearestPlacesReader,
    private readonly geocoder: Geocoder,
    private readonly company: CompanyService,
    private readonly members: MembersService,
  ) {}

  /**
   * Which of `ids` are live places of the company (another company's places and soft-deleted ones
   * are unknown ids: a new job reference to them is refused).
   * @returns the subset of `ids` that exist, as a set; empty for no ids (without a query).
   */
  existingIds(companyId: string, ids: readonly string[]): Promise<Set<string>> {
    return this.repo.liveIds(companyId, ids);
  }

  /**
   * createplace. `location` is required unless a geocoder is configured (then the address fields
   * are geocoded); the caller's own teams are added to `teams`.
   * @throws DomainError forbidden (a worker without `workers_create_places`), invalid naming the field
   */
  async createPlace(ctx: AuthContext, dto: CreatePlaceDto): Promise<{ uid: string; place: PlaceView }> {
    this.assertMayWrite(ctx, 'createplace');
    const patch = { ...(await this.patchOf(ctx, dto, 'data')), name: dto.name };
    if (!patch.location) patch.location = toPoint(await this.geocode(dto));
    const callerTeams = await this.callerTeams(ctx);
    const teams = [...new Set([...(patch.teams ?? []), ...callerTeams])].sort((a, b) => a - b);
    const id = newId();
    await this.repo.insert({
      ...patch,
      id,
      companyId: ctx.companyId,
      teams,
      creatorId: ctx.memberId,
      createdAt: Date.now(),
    });
    const [place] = await this.placeViews(ctx.companyId, [id]);
    return { uid: id, place };
  }

  /** getplaces: live places the caller sees, nearest first (see `getPlacesSql`). */
  async getPlaces(ctx: AuthContext, dto: GetPlacesDto): Promise<PlaceView[]> {
    const visibility = await this.visibility(ctx);
    return this.nearest.nearest({
      companyId: ctx.companyId,
      memberId: ctx.memberId,
      query: dto.query,
      uids: dto.uids,
      teams: visibility === 'all' ? undefined : visibility.teams,
      max: dto.max ?? DEFAULT_PLACES_MAX,
    });
  }

  /**
   * `GET /v1/places`: live places the caller sees (getplaces' visibility rule), newest change first —
   * `tsSaved` then id, descending — for polling by `updatedSince` (ms, inclusive). Not commit-ordered:
   * place times come from the api's clock at the write (docs/connector.md "Places").
   */
  async listForConnector(ctx: AuthContext, f: Omit<ConnectorPlacesFilter, 'companyId' | 'teams'>): Promise<PlaceView[]> {
    const visibility = await this.visibility(ctx);
    const rows = await this.repo.connectorPage({
      ...f,
      companyId: ctx.companyId,
      teams: visibility === 'all' ? undefined : visibility.teams,
    });
    return rows.map(toPlaceRowView);
  }

  /**
   * editplace: the fields sent change on every place named; nothing is written when one is unknown.
   * @returns the places' views, in the order named
   * @throws DomainError not_found (1001/404) naming the first unknown, deleted, unseen or other
   *   company's uid (`data.uid` / `data.uids[i]`: place X not found); forbidden; invalid naming the field
   */
  async editPlaces(ctx: AuthContext, dto: EditPlaceDto): Promise<PlaceView[]> {
    this.assertMayWrite(ctx, 'editplace');
    const patch = await this.patchOf(ctx, dto, 'data');
    if (dto.name !== undefined) patch.name = dto.name;
    const visibility = await this.visibility(ctx);
    return this.repo.transaction(async (manager) => {
      const ids = await this.lockTargets(manager, ctx.companyId, dto.targets, visibility);
      await this.repo.update(manager, ctx.companyId, ids, patch, Date.now());
      return this.placeViews(ctx.companyId, ids, manager);
    });
  }

  /**
   * deleteplace (our extension): soft delete (`deleted_at`). The places leave getplaces, geofencing
   * and new job references; jobs that already name them still show them.
   * @throws DomainError not_found naming the first unknown uid (nothing is deleted); forbidden
   */
  async deletePlaces(ctx: AuthContext, targets: readonly PlaceTarget[]): Promise<string[]> {
    this.assertMayWrite(ctx, 'deleteplace');
    const visibility = await this.visibility(ctx);
    return this.repo.transaction(async (manager) => {
      const ids = await this.lockTargets(manager, ctx.companyId, targets, visibility);
      await this.repo.softDelete(manager, ctx.companyId, ids, Date.now());
      return ids;
    });
  }

  private assertMayWrite(ctx: AuthContext, action: PlaceWriteAction): void {
    const denial = placeWriteDenial(ctx, action);
    if (denial) throw new DomainError('forbidden', denial);
  }

  /** The caller's teams (a member's `teams`; [] when not found). */
  private async callerTeams(ctx: AuthContext): Promise<number[]> {
    const [me] = await this.members.findActive(ctx.companyId, { ids: [ctx.memberId] });
    return me?.teams ?? [];
  }

  private async visibility(ctx: AuthContext): Promise<'all' | { teams: number[] }> {
    const all = placeVisibility(ctx, []);
    return all === 'all' ? all : placeVisibility(ctx, await this.callerTeams(ctx));
  }

  /**
   * The columns a write sets from the fields sent (`name` aside), `teams` checked against the
   * company's `teams_config`.
   */
  private async patchOf(ctx: AuthContext, f: PlaceWritableFields, prefix: string): Promise<PlacePatch> {
    const patch: PlacePatch = {};
    if (f.location !== undefined) patch.location = toPoint(f.location);
    if (f.radius !== undefined) patch.radius = f.radius;
    if (f.address !== undefined) patch.address = f.address;
    if (f.city !== undefined) patch.city = f.city;
    if (f.state !== undefined) patch.state = f.state;
    if (f.postalcode !== undefined) patch.postalcode = f.postalcode;
    if (f.country_code !== undefined) patch.countryCode = f.country_code;
    if (f.phone !== undefined) patch.phone = f.phone;
    if (f.email !== undefined) patch.email = f.email;
    if (f.color !== undefined) patch.color = f.color;
    if (f.linkedForms !== undefined) patch.linkedForms = f.linkedForms;
    if (f.extended_data !== undefined) patch.data = f.extended_data.map(({ key, val }) => ({ key, val }));
    if (f.teams !== undefined) {
      const teams = [...new Set(f.teams)].sort((a, b) => a - b);
      if (teams.length) {
        const known = await this.company.teamIds(ctx.companyId);
        const i = f.teams.findIndex((t) => !known.has(t));
        if (i >= 0) throw invalid(`${prefix}.teams[${i}]`, `team ${f.teams[i]} is not in the company's teams_config`);
      }
      patch.teams = teams;
    }
    return patch;
  }

  /**
   * The position of createplace's address, through the configured geocoder.
   * @throws DomainError invalid naming `data.location` when none is configured or it found nothing
   */
  private async geocode(dto: CreatePlaceDto): Promise<{ lat: number; lng: number }> {
    if (!this.geocoder.configured) throw invalid('data.location', 'is required: no geocoder is configured');
    const { address, city, state, postalcode, country_code } = dto;
    if (![address, city, state, postalcode, country_code].some((v) => v))
      throw invalid('data.location', 'is required: send location, or address fields to geocode');
    const found = await this.geocoder.search({ address, city, state, postalcode, country_code });
    if (!found) throw invalid('data.location', 'is required: the address was not found');
    return found;
  }

  /**
   * Locks the live places `targets` name (`FOR UPDATE`, in id order), within what the caller sees.
   * @returns their ids, in the order named, without repeats
   * @throws DomainError not_found naming the first target that is not such a place (the id the
   *   action acts on: 1001/404, CONTRACTS.md "Ids")
   */
  private async lockTargets(
    db: Queryable,
    companyId: string,
    targets: readonly PlaceTarget[],
    visibility: 'all' | { teams: number[] },
  ): Promise<string[]> {
    const ids = [...new Set(targets.map((t) => t.uid))];
    const found = await this.repo.lockLive(db, companyId, ids, visibility === 'all' ? undefined : visibility.teams);
    const missing = targets.find((t) => !found.has(t.uid));
    if (missing) throw notFound(`${missing.field}: place ${missing.uid}`);
    return ids;
  }

  /**
   * The views of a company's places by id (for other domains: the `place` of a check-in event, a
   * report row). Soft-deleted places are answered too — a visit or job that named a place keeps
   * showing it — and another company's ids are simply absent.
   * @param db the caller's transaction, when it has one
   * @returns views in the order of `ids` (unknown ids left out, a repeated id once per occurrence)
   */
  async placeViews(companyId: string, ids: readonly string[], db?: Queryable): Promise<PlaceView[]> {
    const byId = new Map((await this.views.byIds(companyId, ids, db)).map((v) => [v.uid, v]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}
