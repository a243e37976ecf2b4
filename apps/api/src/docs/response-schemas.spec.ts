import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadResponseSchemas, RESPONSE_SCHEMAS_FILE, responseSchemasCandidates } from './response-schemas';

describe('response schemas file', () => {
  it('is looked for beside the built module, and from the sources in the last build', () => {
    const root = resolve('/repo');
    expect(responseSchemasCandidates(join(root, 'dist/apps/api/src/docs'))).toEqual([
      join(root, 'dist/apps/api/src/docs', RESPONSE_SCHEMAS_FILE),
    ]);
    expect(responseSchemasCandidates(join(root, 'apps/api/src/docs'))).toEqual([
      join(root, 'apps/api/src/docs', RESPONSE_SCHEMAS_FILE),
      join(root, 'dist/apps/api/src/docs', RESPONSE_SCHEMAS_FILE),
    ]);
  });

  it('loads the first file that exists, or nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fw-answers-'));
    const file = join(dir, RESPONSE_SCHEMAS_FILE);
    writeFileSync(file, JSON.stringify({ handlers: { 'A.b': 'A_b' }, schemas: { A_b: { type: 'object' } } }));
    expect(loadResponseSchemas([join(dir, 'missing.json'), file])).toEqual({
      handlers: { 'A.b': 'A_b' },
      schemas: { A_b: { type: 'object' } },
    });
    expect(loadResponseSchemas([join(dir, 'missing.json')])).toBeUndefined();
  });
});
