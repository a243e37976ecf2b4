import { RequestMethod } from '@nestjs/common';
import { GUARDS_METADATA, HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { MetadataScanner } from '@nestjs/core';
import { ActionName } from '../envelope/action-roles';
import { ConnectorAuthGuard } from '../envelope/connector-auth.guard';
import { readActionData } from '../envelope/decorators';
import {
  ACTION_FILES,
  ACTION_NAME,
  ActionFilesDoc,
  CONNECTOR_STREAM,
  ConnectorStreamDoc,
  PUBLIC_ROUTE,
  PublicRouteDoc,
  ROUTE_EXAMPLES,
  RouteExamplesDoc,
} from '../envelope/request-context';

type Class = abstract new (...args: never[]) => unknown;

/** One documented route, read from a controller's Nest metadata. */
export interface DocRoute {
  surface: 'action' | 'connector' | 'public';
  /** lower-case HTTP method */
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path template: `/api/getjobs`, `/v1/jobs/{id}` */
  path: string;
  /** actions only */
  action?: ActionName;
  /** controller class name, e.g. `JobsConnectorController` */
  controller: string;
  handler: string;
  /** `@HttpCode`, else Nest's default (201 for POST, 200 otherwise) */
  successStatus: number;
  /** the handler takes `@Res({passthrough: true})` and may set another 2xx itself */
  setsOwnStatus: boolean;
  /** the `@Data()` DTO class (actions) */
  data?: Class;
  /** the `@Body()` DTO class (connector) */
  body?: Class;
  /** the `@Query()` DTO class (connector) */
  query?: Class;
  /** `@Query('name')` parameters */
  queryNames: string[];
  /** `@Param('name')` parameters, in declaration order */
  pathParams: string[];
  /** `@PublicRoute(doc)` routes (keyless, outside /api and /v1) */
  publicDoc?: PublicRouteDoc;
  /** `@ActionFiles(doc)` / `@ConnectorFiles(doc)`: the files a route answers (an action: besides JSON) */
  files?: ActionFilesDoc;
  /** `@Examples(doc)`: request and answer examples */
  examples?: RouteExamplesDoc;
  /** `@ConnectorStream(doc)`: a connector route answering a stream */
  stream?: ConnectorStreamDoc;
}

const METHODS: Partial<Record<RequestMethod, DocRoute['method']>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};

interface RouteArg {
  index: number;
  data?: unknown;
  factory?: unknown;
}

/** `v1/jobs` + `:id/archive` → `/v1/jobs/{id}/archive`. */
export function openApiPath(controllerPath: string, handlerPath: string): string {
  const joined = `/${controllerPath}/${handlerPath}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  return joined.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const firstPath = (value: unknown): string => (Array.isArray(value) ? String(value[0] ?? '/') : typeof value === 'string' ? value : '/');

/**
 * Every action (`@Action(name)`), connector route (controllers under `@ConnectorAuth()`) and public
 * route (`@PublicRoute(doc)`) of the
 * given controllers, from the metadata Nest routes by — path, method, HTTP code, the parameter
 * decorators and their `design:paramtypes` classes — so a new handler is documented without
 * anything written for it. Other routes (health, metrics, the docs, the unknown-action fallback)
 * are left out. Sorted by path, then method.
 */
export function routesOf(controllers: Class[]): DocRoute[] {
  const routes: DocRoute[] = [];
  const scanner = new MetadataScanner();
  for (const controller of controllers) {
    const proto = controller.prototype as Record<string, unknown>;
    const controllerPath = firstPath(Reflect.getMetadata(PATH_METADATA, controller));
    const controllerGuards = (Reflect.getMetadata(GUARDS_METADATA, controller) ?? []) as unknown[];
    for (const handler of scanner.getAllMethodNames(proto)) {
      const fn = proto[handler] as () => unknown;
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod | undefined;
      const method = requestMethod === undefined ? undefined : METHODS[requestMethod];
      if (!method) continue;
      const action = Reflect.getMetadata(ACTION_NAME, fn) as ActionName | undefined;
      const guards = [...controllerGuards, ...((Reflect.getMetadata(GUARDS_METADATA, fn) ?? []) as unknown[])];
      const publicDoc = Reflect.getMetadata(PUBLIC_ROUTE, fn) as PublicRouteDoc | undefined;
      const files = Reflect.getMetadata(ACTION_FILES, fn) as ActionFilesDoc | undefined;
      const stream = Reflect.getMetadata(CONNECTOR_STREAM, fn) as ConnectorStreamDoc | undefined;
      const examples = Reflect.getMetadata(ROUTE_EXAMPLES, fn) as RouteExamplesDoc | undefined;
      const surface = action ? 'action' : guards.includes(ConnectorAuthGuard) || stream ? 'connector' : publicDoc ? 'public' : undefined;
      if (!surface) continue;

      const route: DocRoute = {
        surface,
        method,
        path: openApiPath(controllerPath, firstPath(Reflect.getMetadata(PATH_METADATA, fn))),
        action,
        controller: controller.name,
        handler,
        successStatus: (Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined) ?? (method === 'post' ? 201 : 200),
        setsOwnStatus: false,
        queryNames: [],
        pathParams: [],
        ...(publicDoc ? { publicDoc } : {}),
        ...(files ? { files } : {}),
        ...(stream ? { stream } : {}),
        ...(examples ? { examples } : {}),
      };
      const types = (Reflect.getMetadata('design:paramtypes', proto, handler) ?? []) as unknown[];
      const args = Object.entries((Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<string, RouteArg>);
      for (const [key, arg] of args.sort(([, a], [, b]) => a.index - b.index)) {
        const type = types[arg.index];
        const dto = typeof type === 'function' && ![String, Number, Boolean, Object].includes(type as never) ? (type as Class) : undefined;
        if (arg.factory === readActionData) route.data = dto;
        if (arg.factory) continue;
        const paramtype = Number(key.split(':')[0]) as RouteParamtypes;
        // the other kinds (request, headers, ip…) are not part of the wire contract
        if (paramtype === RouteParamtypes.BODY) route.body = dto;
        else if (paramtype === RouteParamtypes.QUERY && typeof arg.data === 'string') route.queryNames.push(arg.data);
        else if (paramtype === RouteParamtypes.QUERY) route.query = dto;
        else if (paramtype === RouteParamtypes.PARAM && typeof arg.data === 'string') route.pathParams.push(arg.data);
        else if (paramtype === RouteParamtypes.RESPONSE) route.setsOwnStatus = true;
      }
      routes.push(route);
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
