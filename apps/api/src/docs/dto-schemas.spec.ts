import 'reflect-metadata';
import { EntriesOf, Optional, Rule } from '@app/core';
import { Type } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { SchemaObject } from 'openapi3-ts/oas30';
import { DtoSchemas, probeConditions } from './dto-schemas';

const NullableOptional = () => ValidateIf((_o, v) => v !== undefined && v !== null);
const EmptyOr = () => ValidateIf((_o, v) => v !== '');

class Inner {
  @IsInt()
  @Min(1)
  n: number;
}

class Entry {
  @Optional()
  @IsString()
  title?: string;
}

class Sample {
  @IsString()
  @MaxLength(10)
  name: string;

  @Optional()
  @IsInt({ message: 'must be an integer ≥ 0' })
  @Min(0)
  @Max(5)
  count?: number;

  @NullableOptional()
  @IsString()
  cleared?: string | null;

  @Optional()
  @IsString()
  @EmptyOr()
  @Matches(/^#[0-9a-f]{6}$/, { message: 'must be a color, or ""' })
  color?: string;

  @Optional()
  @IsIn([0, 1, true, false])
  flag?: number | boolean;

  @Optional()
  @Rule((v) => v === 'x', 'must be x')
  custom?: string;

  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => Inner)
  inner?: Inner;

  @Allow()
  anything?: unknown;

  @EntriesOf(() => Entry, 'x_* keys')
  @IsArray()
  entries: unknown[];

  @Optional()
  @EntriesOf(() => Entry)
  @IsObject()
  byId?: Record<string, unknown>;
}

describe('probeConditions', () => {
  const cond = (fn: (o: object, v: unknown) => boolean) => ({ type: 'conditionalValidation', constraints: [fn] });
  const rule = { type: 'isString' };

  it('reads Optional, NullableOptional and EmptyOr', () => {
    expect(probeConditions('p', [rule])).toEqual({ required: true, nullable: false, emptyString: false });
    expect(probeConditions('p', [cond((_o, v) => v !== undefined), rule])).toEqual({
      required: false,
      nullable: false,
      emptyString: false,
    });
    expect(probeConditions('p', [cond((_o, v) => v !== undefined && v !== null), rule])).toMatchObject({ required: false, nullable: true });
    expect(probeConditions('p', [cond((_o, v) => v !== ''), rule])).toEqual({ required: true, nullable: false, emptyString: true });
  });

  it('passes the object too (class-validator IsOptional reads it from there)', () => {
    const isOptional = cond((o) => (o as Record<string, unknown>).p !== undefined && (o as Record<string, unknown>).p !== null);
    expect(probeConditions('p', [isOptional, rule])).toMatchObject({ required: false, nullable: true });
  });

  it('@Allow() alone accepts absence', () => {
    expect(probeConditions('p', [{ type: 'whitelistValidation' }]).required).toBe(false);
  });
});

describe('DtoSchemas', () => {
  const schemas = new DtoSchemas();
  const ref = schemas.ref(Sample);
  const sample = schemas.components.Sample;
  const prop = (name: string) => sample.properties![name] as SchemaObject;

  it('names the schema by class and refuses unknown keys', () => {
    expect(ref).toEqual({ $ref: '#/components/schemas/Sample' });
    expect(sample.type).toBe('object');
    expect(sample.additionalProperties).toBe(false);
  });

  it('requires exactly what the validator requires', () => {
    expect(sample.required?.sort()).toEqual(['entries', 'name']);
  });

  it('keeps the rules as constraints and custom messages as descriptions', () => {
    expect(prop('name')).toEqual({ type: 'string', maxLength: 10 });
    expect(prop('count')).toMatchObject({ type: 'integer', minimum: 0, maximum: 5, description: 'must be an integer ≥ 0' });
    expect(prop('custom')).toEqual({ type: 'string', description: 'must be x' });
  });

  it('marks null-skipping fields nullable and lets "" through where a rule would refuse it', () => {
    expect(prop('cleared')).toEqual({ type: 'string', nullable: true });
    expect(prop('color').anyOf).toEqual([
      { type: 'string', pattern: '^#[0-9a-f]{6}$' },
      { type: 'string', enum: [''] },
    ]);
  });

  it('gives mixed-type lists an enum without a type', () => {
    expect(prop('flag')).toEqual({ enum: [0, 1, true, false] });
  });

  it('refers to nested DTOs by name, with no siblings beside $ref', () => {
    expect(prop('inner')).toEqual({ $ref: '#/components/schemas/Inner' });
    expect(schemas.components.Inner).toMatchObject({ required: ['n'], properties: { n: { type: 'integer', minimum: 1 } } });
  });

  it('leaves @Allow() fields unconstrained', () => {
    expect(prop('anything')).toEqual({});
  });

  it('documents @EntriesOf items and values, open to the named extra keys', () => {
    expect(prop('entries')).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Entry' } });
    expect(schemas.components.Entry.additionalProperties).toEqual({ description: 'x_* keys' });
    expect(prop('byId')).toMatchObject({ type: 'object', additionalProperties: { $ref: '#/components/schemas/Entry_2' } });
    expect(schemas.components.Entry_2.additionalProperties).toBe(false);
  });

  it('documents IsDefined as required only (the library’s `not: {type: null}` is not OpenAPI 3.0)', () => {
    class Needed {
      @IsDefined({ message: 'is required: a member uid' })
      @IsString()
      memberId: string;
    }
    expect(new DtoSchemas().schemaOf(Needed)).toEqual({
      type: 'object',
      properties: { memberId: { type: 'string', description: 'is required: a member uid' } },
      required: ['memberId'],
      additionalProperties: false,
    });
  });

  it('answers an empty closed object for a DTO without rules', () => {
    class Nothing {}
    expect(new DtoSchemas().schemaOf(Nothing)).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });
});
