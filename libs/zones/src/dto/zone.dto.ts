import { ColorOrEmpty, IdOrIdsDto, invalid, NamedTarget, Optional } from '@app/core';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, IsString, Length } from 'class-validator';
import { polygonShapeIssue } from '../zone-polygon';
import type { GeoJsonPolygon } from '../zone-view';

/** Zones one getzones / deletezone call may name. */
export const MAX_ZONE_IDS = 1000;
/** Teams one zone may list. */
export const MAX_ZONE_TEAMS = 1000;

/**
 * Checks a polygon's GeoJSON shape ({@link polygonShapeIssue}).
 * @throws DomainError invalid naming the exact part (`data.polygon.coordinates[0][3][1]`) and the rule
 */
function assertPolygonShape(value: unknown, field: string): asserts value is GeoJsonPolygon {
  const issue = polygonShapeIssue(value);
  if (issue) throw invalid(`${field}${issue.path}`, issue.rule);
}

/** The fields createzone and editzone write besides `name` and `polygon` (CONTRACTS.md "Alerts and zones"). */
export class ZoneWritableFields {
  /** a danger zone (`enters_danger_zone` alerts); default false */
  @Optional()
  @IsBoolean()
  danger?: boolean;

  /** team ids of the company's `teams_config`; stored sorted, without repeats; default [] */
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_ZONE_TEAMS)
  @IsInt({ each: true, message: 'must be an array of team ids (integers)' })
  teams?: number[];

  /** `#RRGGBB` or ""; default "" */
  @Optional()
  @ColorOrEmpty()
  color?: string;
}

/**
 * createzone (our extension): `name` and `polygon` required. The polygon's GeoJSON shape is checked
 * when the pipe calls {@link completeValidation}; PostGIS' rules (validity, area) by the service.
 */
export class CreateZoneDto extends ZoneWritableFields {
  @IsString()
  @Length(1, 200)
  name: string;

  /** a GeoJSON Polygon, `[lng, lat]` degrees (docs/zones.md "Polygon rules") */
  @IsObject({ message: 'must be a GeoJSON Polygon {"type": "Polygon", "coordinates": [[[lng, lat], …]]}' })
  polygon: GeoJsonPolygon;

  completeValidation(prefix: string): void {
    assertPolygonShape(this.polygon, `${prefix}.polygon`);
  }
}

/** editzone (our extension): `id` and createzone's fields; only the fields sent change. */
export class EditZoneDto extends ZoneWritableFields {
  @IsString()
  @Length(1, 64)
  id: string;

  @Optional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @Optional()
  @IsObject({ message: 'must be a GeoJSON Polygon {"type": "Polygon", "coordinates": [[[lng, lat], …]]}' })
  polygon?: GeoJsonPolygon;

  completeValidation(prefix: string): void {
    if (this.polygon !== undefined) assertPolygonShape(this.polygon, `${prefix}.polygon`);
  }
}

/** getzones (our extension): every live zone, or those of `ids` (unknown ids simply absent). */
export class GetZonesDto {
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_ZONE_IDS)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  ids?: string[];
}

/** A zone a deletezone call names, with the field an error about it names. */
export type ZoneTarget = NamedTarget;

/** deletezone (our extension): `id | ids`, exactly one. */
export class DeleteZoneDto extends IdOrIdsDto {
  protected get noun(): string {
    return 'zone';
  }
}
