import { Injectable, Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { OpenAPIObject } from 'openapi3-ts/oas30';
import { buildOpenApiDocument } from './openapi-document';
import { withDeviceRoutes } from './osmand-doc';
import { loadResponseSchemas } from './response-schemas';
import { routesOf } from './routes';

/** The app's OpenAPI document, generated from its registered controllers (and the build's answer schemas) on first use, then kept. */
@Injectable()
export class OpenApiDocumentProvider {
  private document?: OpenAPIObject;

  constructor(private readonly discovery: DiscoveryService) {}

  get(): OpenAPIObject {
    this.document ??= withDeviceRoutes(
      buildOpenApiDocument(
        routesOf(
          this.discovery.getControllers().flatMap((wrapper) => (typeof wrapper.metatype === 'function' ? [wrapper.metatype as Type] : [])),
        ),
        loadResponseSchemas(),
      ),
    );
    return this.document;
  }
}
