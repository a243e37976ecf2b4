import { AuthContext } from '@app/core';
import { applyDecorators, createParamDecorator, ExecutionContext, HttpCode, Post, SetMetadata, UseGuards } from '@nestjs/common';
import { ActionAuthGuard } from './action-auth.guard';
import { ActionName } from './action-roles';
import { ConnectorAuthGuard } from './connector-auth.guard';
import {
  ACTION_FILES,
  ACTION_NAME,
  ActionFilesDoc,
  ApiRequest,
  CONNECTOR_STREAM,
  ConnectorStreamDoc,
  PUBLIC_ROUTE,
  PublicRouteDoc,
  ROUTE_EXAMPLES,
  RouteExamplesDoc,
} from './request-context';

/**
 * `POST /api/<name>` answering 200: authenticated, `ver` checked, the caller's role checked against
 * the merged roles table (`ACTION_ROLES`; `name` must be one of its actions, so a handler without a
 * roles entry does not compile), `data` required to be an object. Use on methods of an
 * `@Controller('api')`.
 */
export const Action = (name: ActionName) =>
  applyDecorators(Post(name), HttpCode(200), SetMetadata(ACTION_NAME, name), UseGuards(ActionAuthGuard));

/**
 * Marks a keyless route outside `/api` and `/v1` (public share links) for the OpenAPI document: its
 * path parameters, `doc.produces` as the success answer, JSON errors as the action API's.
 */
export const PublicRoute = (doc: PublicRouteDoc) => SetMetadata(PUBLIC_ROUTE, doc);

/**
 * Documents that an action answers a file on success (the OpenAPI document lists `doc.types` beside
 * its JSON answer, which then covers the other successes, e.g. a report still running).
 */
export const ActionFiles = (doc: ActionFilesDoc) => SetMetadata(ACTION_FILES, doc);

/**
 * Documents that a connector route answers a file on success (`POST /v1/reports`): the OpenAPI
 * document lists `doc.types` as its success answer (beside JSON only when the handler also returns JSON).
 */
export const ConnectorFiles = (doc: ActionFilesDoc) => SetMetadata(ACTION_FILES, doc);

/** Request and answer examples of a connector route, for the OpenAPI document ({@link RouteExamplesDoc}). */
export const Examples = (doc: RouteExamplesDoc) => SetMetadata(ROUTE_EXAMPLES, doc);

/**
 * Documents a connector route that answers a stream instead of JSON (`GET /v1/stream`): the OpenAPI
 * document lists it under `/v1` with `doc.produces` as its success answer and `doc.query` /
 * `doc.headers` as its parameters. The route brings its own guard (the stream's: a token or the key).
 */
export const ConnectorStream = (doc: ConnectorStreamDoc) => SetMetadata(CONNECTOR_STREAM, doc);

/** Marks a controller as connector (`/v1`): `API-Key` header authentication. */
export const ConnectorAuth = () => UseGuards(ConnectorAuthGuard);

/** The authenticated caller. */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  return ctx.switchToHttp().getRequest<ApiRequest>().auth!;
});

/** Reads `data` from the envelope; exported so the OpenAPI generator can tell `@Data()` parameters apart. */
export const readActionData = (_: unknown, ctx: ExecutionContext): unknown => {
  return (ctx.switchToHttp().getRequest<ApiRequest>().body as { data?: unknown }).data;
};

/** The action's `data` object, validated against the parameter's DTO class by the global pipe. */
export const Data = createParamDecorator(readActionData);

/** The action API `ver` (1 or 2; 2 when absent). */
export const Ver = createParamDecorator((_: unknown, ctx: ExecutionContext): 1 | 2 => {
  return ctx.switchToHttp().getRequest<ApiRequest>().ver ?? 2;
});
