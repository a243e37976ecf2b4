import 'reflect-metadata';
import { AppConfig } from '@app/core';
import { NotFoundException } from '@nestjs/common';
import { DocsController } from './docs.controller';
import { OpenApiDocumentProvider } from './openapi-document.provider';

describe('DocsController', () => {
  const document = { get: () => ({ openapi: '3.0.3' }) } as unknown as OpenApiDocumentProvider;
  const res = { type: jest.fn().mockReturnThis(), send: jest.fn(), setHeader: jest.fn(), sendFile: jest.fn() };

  it('answers 404 everywhere when DOCS_ENABLED=false', () => {
    const off = new DocsController(document, { DOCS_ENABLED: false } as AppConfig);
    expect(() => off.page()).toThrow(NotFoundException);
    expect(() => off.json()).toThrow(NotFoundException);
    expect(() => off.asset('swagger-ui.css', res as never)).toThrow(NotFoundException);
  });

  it('serves only the listed swagger-ui files', () => {
    const on = new DocsController(document, { DOCS_ENABLED: true } as AppConfig);
    expect(() => on.asset('index.html', res as never)).toThrow(NotFoundException);
    expect(() => on.asset('../package.json', res as never)).toThrow(NotFoundException);
    on.asset('swagger-ui.css', res as never);
    expect(res.sendFile).toHaveBeenCalledWith(expect.stringMatching(/swagger-ui-dist\/swagger-ui\.css$/));
  });
});
