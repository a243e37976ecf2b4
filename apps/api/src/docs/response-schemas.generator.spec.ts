import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateResponseSchemas } from './response-schemas.generator';

/** A tiny project shaped like ours: its own decorators of the same names, controllers under apps/. */
function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'fw-gen-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'tsconfig.build.json',
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        strict: true,
        experimentalDecorators: true,
        skipLibCheck: true,
        lib: ['ES2023'],
        types: [],
      },
      include: ['apps/**/*.ts', 'libs/**/*.ts'],
    }),
  );
  write(
    'libs/views.ts',
    `/** A job. */
export interface JobView {
  id: string;
  /** YYYYMMDD */
  day: number;
  note: string | null;
  owner?: OwnerView | null;
}
export interface OwnerView { name: string }
`,
  );
  write(
    'apps/api/src/decorators.ts',
    `export const Action = (_name: string) => (_t: object, _k: string) => {};
export const Get = () => (_t: object, _k: string) => {};
export const ConnectorAuth = () => (_c: Function) => {};
export const ConnectorFiles = (_doc: object) => (_t: object, _k: string) => {};
export class StreamableFile {}
`,
  );
  write(
    'apps/api/src/things.controller.ts',
    `import { Action, ConnectorAuth, ConnectorFiles, Get, StreamableFile } from './decorators';
import { JobView } from '../../../libs/views';
const load = async (): Promise<JobView[]> => [];
export class ThingsActionsController {
  @Action('getthings')
  async getthings(ver: 1 | 2) {
    const jobs = await load();
    return ver === 1 ? { status: 0 } : { status: 0, jobs, pair: [1, 'a'] as [number, string] };
  }
  helper() { return 1; }
}
@ConnectorAuth()
export class ThingsConnectorController {
  @Get()
  list() { return { data: { items: [] as JobView[] } }; }
  @Action('other')
  async other() { return { status: 0 }; }
  @Get()
  @ConnectorFiles({ types: ['text/csv'] })
  async file(): Promise<StreamableFile> { return new StreamableFile(); }
  notARoute() { return 'x'; }
}
export class OtherController {
  @Get()
  health() { return { ok: true }; }
}
`,
  );
  return root;
}

describe('generateResponseSchemas', () => {
  const generated = generateResponseSchemas(join(fixture(), 'tsconfig.build.json'));

  it('names one answer per action and connector route, and no other method', () => {
    expect(generated.handlers).toEqual({
      'ThingsActionsController.getthings': 'ThingsActions_getthings',
      'ThingsConnectorController.list': 'ThingsConnector_list',
      'ThingsConnectorController.other': 'ThingsConnector_other',
      'ThingsConnectorController.file': 'ThingsConnector_file',
    });
  });

  it('writes no answer schema for a connector route that answers only files (@ConnectorFiles documents them)', () => {
    expect(generated.schemas.ThingsConnector_file).toBeUndefined();
    expect(generated.schemas.ThingsConnector_list).toBeDefined();
  });

  it('resolves inferred, awaited return types and the named types they use, in OpenAPI 3.0 form', () => {
    const { schemas } = generated;
    expect(schemas.ThingsActions_getthings.anyOf).toHaveLength(2);
    expect(schemas.ThingsActions_getthings.anyOf![1]).toMatchObject({
      properties: { status: { type: 'number' }, jobs: { type: 'array', items: { $ref: '#/components/schemas/JobView' } } },
    });
    expect(schemas.ThingsConnector_list).toMatchObject({
      properties: { data: { properties: { items: { items: { $ref: '#/components/schemas/JobView' } } } } },
    });
    expect(schemas.JobView).toEqual({
      type: 'object',
      description: 'A job.',
      properties: {
        id: { type: 'string' },
        day: { type: 'number', description: 'YYYYMMDD' },
        note: { type: 'string', nullable: true },
        owner: { allOf: [{ $ref: '#/components/schemas/OwnerView' }], nullable: true },
      },
      required: ['id', 'day', 'note'],
      additionalProperties: false,
    });
    expect(JSON.stringify(schemas)).not.toMatch(/definitions|\$schema|"null"/);
  });
});
