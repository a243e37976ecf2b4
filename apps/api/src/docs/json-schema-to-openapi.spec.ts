import { componentName, toOpenApiSchema } from './json-schema-to-openapi';

const P = '#/components/schemas/';

describe('toOpenApiSchema', () => {
  it('drops $schema, moves definitions refs under components and makes their names valid', () => {
    expect(
      toOpenApiSchema(
        {
          $schema: 'http://json-schema.org/draft-07/schema#',
          definitions: { 'Record<string,X>': { type: 'object' }, X: { $ref: '#/definitions/Record<string,X>' } },
        },
        P,
      ),
    ).toEqual({ definitions: { Record_string_X_: { type: 'object' }, X: { $ref: `${P}Record_string_X_` } } });
    expect(componentName('Partial%3CJob%3E')).toBe('Partial_Job_');
  });

  it('turns type arrays with null into nullable, and several types into anyOf', () => {
    expect(toOpenApiSchema({ type: ['string', 'null'] }, P)).toEqual({ type: 'string', nullable: true });
    expect(toOpenApiSchema({ type: ['string', 'number'] }, P)).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(toOpenApiSchema({ type: ['string', 'number', 'null'] }, P)).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }],
      nullable: true,
    });
  });

  it('turns anyOf [X, null] into a nullable X (a $ref wrapped in allOf)', () => {
    expect(toOpenApiSchema({ anyOf: [{ $ref: '#/definitions/A' }, { type: 'null' }], description: 'd' }, P)).toEqual({
      description: 'd',
      allOf: [{ $ref: `${P}A` }],
      nullable: true,
    });
    expect(toOpenApiSchema({ anyOf: [{ type: 'object', properties: { a: { type: 'number' } } }, { type: 'null' }] }, P)).toEqual({
      type: 'object',
      properties: { a: { type: 'number' } },
      nullable: true,
    });
    expect(toOpenApiSchema({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] }, P)).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }],
      nullable: true,
    });
  });

  it('rewrites const, drops properties typed undefined, converts tuples, and recurses everywhere', () => {
    const converted = toOpenApiSchema(
      {
        type: 'object',
        properties: {
          status: { type: 'number', const: 0 },
          gone: { not: {} },
          list: { type: 'array', items: { type: ['number', 'null'] } },
          pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], minItems: 2, additionalItems: false },
          map: { type: 'object', additionalProperties: { $ref: '#/definitions/A' } },
        },
        required: ['status', 'gone'],
        additionalProperties: false,
      },
      P,
    );
    expect(converted).toEqual({
      type: 'object',
      properties: {
        status: { type: 'number', enum: [0] },
        list: { type: 'array', items: { type: 'number', nullable: true } },
        pair: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] }, minItems: 2, maxItems: 2 },
        map: { type: 'object', additionalProperties: { $ref: `${P}A` } },
      },
      required: ['status'],
      additionalProperties: false,
    });
  });

  it('does not change its input', () => {
    const input = { type: ['string', 'null'], properties: { a: { const: 1 } } };
    const copy = structuredClone(input);
    toOpenApiSchema(input, P);
    expect(input).toEqual(copy);
  });
});
