import { dirname, join } from 'node:path';
import { AppConfig } from '@app/core';
import { Controller, Get, Header, NotFoundException, Param, Res } from '@nestjs/common';
import { Response } from 'express';
import type { OpenAPIObject } from 'openapi3-ts/oas30';
import { DOCS_INIT_SCRIPT, DOCS_PAGE, SWAGGER_UI_FILES } from './docs.page';
import { OpenApiDocumentProvider } from './openapi-document.provider';

const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

/**
 * `GET /docs`: Swagger UI; `GET /docs/openapi.json`: the OpenAPI 3.0 document it shows. No
 * authentication and no rate limit (limits are charged by the API-key guards, which these routes
 * don't use). `DOCS_ENABLED=false` answers 404 on all of them.
 */
@Controller('docs')
export class DocsController {
  constructor(
    private readonly document: OpenApiDocumentProvider,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  page(): string {
    this.ensureEnabled();
    return DOCS_PAGE;
  }

  @Get('openapi.json')
  @Header('Cache-Control', 'no-cache')
  json(): OpenAPIObject {
    this.ensureEnabled();
    return this.document.get();
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    this.ensureEnabled();
    if (file === 'init.js') {
      res.type('text/javascript; charset=utf-8').send(DOCS_INIT_SCRIPT);
      return;
    }
    const type = Object.hasOwn(SWAGGER_UI_FILES, file) ? SWAGGER_UI_FILES[file] : undefined;
    if (!type) throw new NotFoundException(`no docs asset ${file}`);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type(type).sendFile(join(SWAGGER_UI_DIR, file));
  }

  private ensureEnabled(): void {
    if (!this.config.DOCS_ENABLED) throw new NotFoundException('the API docs are turned off (DOCS_ENABLED=false)');
  }
}
