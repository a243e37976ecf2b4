import { AuthContext, invalid, LatLng, newId, notFound, Queryable } from '@app/core';
import { CompanyService } from '@app/members';
import { Injectable } from '@nestjs/common';
import { CreateZoneDto, EditZoneDto, GetZonesDto, ZoneTarget, ZoneWritableFields } from './dto/zone.dto';
import { polygonInspectionIssue } from './zone-polygon';
import { GeoJsonPolygon, toZoneView, ZoneRef, ZonesAtPoint, ZoneView } from './zone-view';
import { ZonePatch, ZonesRepository } from './zones.repository';

/**
 * Zones (our extension; CONTRACTS.md "Alerts and zones"): the actions createzone, getzones, editzone,
 * deletezone, and the lookups other domains use — {@link zonesAt} (dispatch's `zones` method, alert
 * evaluation) and {@link zoneRefs} (names for firings). Every query is scoped by the caller's company;
 * another company's zones behave as unknown ids. Roles are checked by the api (`ZONE_ACTION_ROLES`).
 * A zone write changes no job and fires no event: jobs' `linkedZones` are derived when read.
 */
@Injectable()
export class ZonesService {
  constructor(
    private readonly repo: ZonesRepository,
    private readonly company: CompanyService,
  ) {}

  /**
   * createzone.
   * @returns the new zone's id and view
   * @throws DomainError invalid naming `data.polygon` (PostGIS validity with its reason, area > 10,000
   *   km²) or `data.teams[i]` (not in the company's `teams_config`)
   */
  async createZone(ctx: AuthContext, dto: CreateZoneDto): Promise<{ id: string; zone: ZoneView }> {
    const patch = await this.patchOf(ctx.companyId, dto, 'data');
    await this.assertPolygonValid(dto.polygon, 'data.polygon');
    const id = newId();
    await this.repo.insert({
      id,
      companyId: ctx.companyId,
      name: dto.name,
      polygon: dto.polygon,
      danger: patch.danger ?? false,
      teams: patch.teams ?? [],
      color: patch.color ?? '',
      createdAt: Date.now(),
    });
    const [row] = await this.repo.liveRows(ctx.companyId, [id]);
    return { id, zone: toZoneView(row) };
  }

  /** getzones: the company's live zones (all, or those of `ids`; unknown ids absent), in creation order. */
  async getZones(ctx: AuthContext, dto: GetZonesDto): Promise<ZoneView[]> {
    return (await this.repo.liveRows(ctx.companyId, dto.ids)).map(toZoneView);
  }

  /**
   * editzone: the fields sent change; `tsSaved` becomes now (also when nothing else was sent).
   * @throws DomainError not_found (1001/404) naming `data.id` (unknown, deleted or another company's:
   *   "data.id: zone X not found"); invalid naming `data.polygon`, `data.teams[i]` — nothing is written then
   */
  async editZone(ctx: AuthContext, dto: EditZoneDto): Promise<ZoneView> {
    const patch = await this.patchOf(ctx.companyId, dto, 'data');
    if (dto.name !== undefined) patch.name = dto.name;
    if (dto.polygon !== undefined) {
      await this.assertPolygonValid(dto.polygon, 'data.polygon');
      patch.polygon = dto.polygon;
    }
    return this.repo.transaction(async (db) => {
      if (!(await this.repo.lockLive(db, ctx.companyId, [dto.id])).has(dto.id)) throw notFound(`data.id: zone ${dto.id}`);
      await this.repo.update(db, ctx.companyId, dto.id, patch, Date.now());
      const [row] = await this.repo.liveRows(ctx.companyId, [dto.id], db);
      return toZoneView(row);
    });
  }

  /**
   * deletezone: soft delete (`deleted_at`). The zones leave getzones, jobs' `linkedZones`, dispatch
   * and alert evaluation at once; firings that named them still show them.
   * @returns the ids deleted, in the order named, without repeats
   * @throws DomainError not_found naming the first target that is not a live zone of the company
   *   (`data.ids[1]: zone X not found`; nothing is deleted then)
   */
  async deleteZones(ctx: AuthContext, targets: readonly ZoneTarget[]): Promise<string[]> {
    const ids = [...new Set(targets.map((t) => t.id))];
    return this.repo.transaction(async (db) => {
      const found = await this.repo.lockLive(db, ctx.companyId, ids);
      const missing = targets.find((t) => !found.has(t.id));
      if (missing) throw notFound(`${missing.field}: zone ${missing.id}`);
      await this.repo.softDelete(db, ctx.companyId, ids, Date.now());
      return ids;
    });
  }

  /**
   * Which live zones of the company cover each point (boundary included; edges are geodesics, so
   * an edge along a parallel bows towards the pole — docs/zones.md). One SQL statement for all points.
   * @param points degrees (WGS84); null for "no position" (answered with no zones)
   * @param db the caller's transaction, when it has one
   * @returns one entry per point, in order: zone ids ascending (= creation order), the union of their teams
   */
  async zonesAt(companyId: string, points: ReadonlyArray<LatLng | null>, db?: Queryable): Promise<ZonesAtPoint[]> {
    const located: LatLng[] = [];
    const slot: number[] = [];
    points.forEach((p, i) => {
      if (p) {
        slot.push(i);
        located.push(p);
      }
    });
    const out: ZonesAtPoint[] = points.map(() => ({ zoneIds: [], teams: [] }));
    const teams = points.map(() => new Set<number>());
    for (const row of await this.repo.covering(companyId, located, db)) {
      const at = slot[row.i - 1];
      out[at].zoneIds.push(row.id);
      for (const t of row.teams ?? []) teams[at].add(t);
    }
    out.forEach((z, i) => (z.teams = [...teams[i]].sort((a, b) => a - b)));
    return out;
  }

  /**
   * The company's zones by id as other domains name them (`{id, name, danger, deletedAt}`); deleted
   * zones too, another company's ids absent.
   * @returns in the order of `ids` (unknown ids left out, a repeated id once per occurrence)
   */
  async zoneRefs(companyId: string, ids: readonly string[], db?: Queryable): Promise<ZoneRef[]> {
    const byId = new Map((await this.repo.refs(companyId, ids, db)).map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * PostGIS' rules of a polygon (validity, area).
   * @throws DomainError invalid naming `field` with PostGIS' reason, or the area found
   */
  private async assertPolygonValid(polygon: GeoJsonPolygon, field: string): Promise<void> {
    const issue = polygonInspectionIssue(await this.repo.inspectPolygon(polygon));
    if (issue) throw invalid(`${field}${issue.path}`, issue.rule);
  }

  /** The columns a write sets from `danger`, `teams` (checked against `teams_config`) and `color`. */
  private async patchOf(companyId: string, f: ZoneWritableFields, prefix: string): Promise<ZonePatch> {
    const patch: ZonePatch = {};
    if (f.danger !== undefined) patch.danger = f.danger;
    if (f.color !== undefined) patch.color = f.color;
    if (f.teams !== undefined) {
      if (f.teams.length) {
        const known = await this.company.teamIds(companyId);
        const i = f.teams.findIndex((t) => !known.has(t));
        if (i >= 0) throw invalid(`${prefix}.teams[${i}]`, `team ${f.teams[i]} is not in the company's teams_config`);
      }
      patch.teams = [...new Set(f.teams)].sort((a, b) => a - b);
    }
    return patch;
  }
}
