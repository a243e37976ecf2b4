import 'reflect-metadata';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { ApiModule } from '../../apps/api/src/api.module';
import { routesOf } from '../../apps/api/src/docs/routes';

type Class = abstract new (...args: never[]) => unknown;
type ModuleRef = Class | { module: Class; controllers?: Class[]; imports?: ModuleRef[] } | Promise<unknown>;

/** Every controller of `mod` and of the modules it imports (static and dynamic modules alike). */
function controllersOf(ref: ModuleRef, seen = new Set<unknown>()): Class[] {
  if (!ref || ref instanceof Promise) return [];
  const dynamic = typeof ref === 'object' && 'module' in ref ? ref : undefined;
  const mod = dynamic ? dynamic.module : (ref as Class);
  if (seen.has(mod)) return [];
  seen.add(mod);
  const own: Class[] = [...(Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, mod) ?? []), ...(dynamic?.controllers ?? [])];
  const imports: ModuleRef[] = [...(Reflect.getMetadata(MODULE_METADATA.IMPORTS, mod) ?? []), ...(dynamic?.imports ?? [])];
  return [...own, ...imports.flatMap((i) => controllersOf(i, seen))];
}

let served: Set<string> | undefined;

/**
 * The routes the api serves, as `METHOD /path/{param}` (`POST /v1/hooks`), read synchronously from
 * the api module's controllers — the metadata Nest routes by, as the OpenAPI document reads it — so
 * a spec can decide at definition time which tests a route still missing from this tree must skip.
 */
export function servedRoutes(): Set<string> {
  served ??= new Set(routesOf(controllersOf(ApiModule)).map((r) => `${r.method.toUpperCase()} ${r.path}`));
  return served;
}
