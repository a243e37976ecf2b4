import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { SchemaObject } from 'openapi3-ts/oas30';

/** The file `npm run build` writes beside the compiled docs module (see response-schemas.generator.ts). */
export const RESPONSE_SCHEMAS_FILE = 'response-schemas.json';

/**
 * The answers' schemas, generated at build time from the handlers' TypeScript return types
 * (OpenAPI 3.0 dialect, `$ref`s under `#/components/schemas/`).
 */
export interface ResponseSchemas {
  /** `handlerKey(controller, handler)` → the name of the answer's schema in {@link schemas} */
  handlers: Record<string, string>;
  /** named schemas: one per handler, and the named types they use (`JobView`, `MemberView`…) */
  schemas: Record<string, SchemaObject>;
}

/** How a handler is named in {@link ResponseSchemas.handlers}: `JobsActionsController.getjobs`. */
export const handlerKey = (controller: string, handler: string) => `${controller}.${handler}`;

/**
 * Where the generated file may be: beside this module (the built app, `dist/apps/api/src/docs`),
 * else, when this module runs from its sources (jest), in the last build's `dist`.
 */
export function responseSchemasCandidates(dir: string = __dirname): string[] {
  const candidates = [join(dir, RESPONSE_SCHEMAS_FILE)];
  if (!dir.split(sep).includes('dist')) {
    // <root>/apps/api/src/docs → <root>/dist/apps/api/src/docs
    const root = resolve(dir, '../../../..');
    candidates.push(join(root, 'dist', dir.slice(root.length + 1), RESPONSE_SCHEMAS_FILE));
  }
  return candidates;
}

/** The first candidate file that exists, parsed; `undefined` when none does (answers are then described by their envelope). */
export function loadResponseSchemas(candidates: string[] = responseSchemasCandidates()): ResponseSchemas | undefined {
  const file = candidates.find((f) => existsSync(f));
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as ResponseSchemas) : undefined;
}
