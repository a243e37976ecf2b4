import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DocsController } from './docs.controller';
import { OpenApiDocumentProvider } from './openapi-document.provider';

/** OpenAPI for both surfaces at `/docs`, generated from the registered controllers and their DTOs. */
@Module({
  imports: [DiscoveryModule],
  controllers: [DocsController],
  providers: [OpenApiDocumentProvider],
})
export class DocsModule {}
