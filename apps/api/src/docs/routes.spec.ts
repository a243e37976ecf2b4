import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { IsInt, IsString } from 'class-validator';
import { Action, Caller, ConnectorAuth, ConnectorFiles, Data, Examples, Ver } from '../envelope/decorators';
import { openApiPath, routesOf } from './routes';

class FindDto {
  @IsString()
  q: string;
}

class PageQuery {
  @IsInt()
  limit: number;
}

@Controller('api')
class SampleActions {
  @Action('getjobs')
  getjobs(@Caller() _ctx: unknown, @Data() _dto: FindDto, @Ver() _ver: 1 | 2) {}

  @Action('getcompany')
  getcompany() {}

  helper() {}
}

@Controller('v1/things')
@ConnectorAuth()
class SampleConnector {
  @Get()
  list(@Query() _q: PageQuery) {}

  @Post(':id/archive')
  @HttpCode(200)
  archive(@Param('id') _id: string) {}

  @Post()
  @ConnectorFiles({ types: ['text/csv'], description: 'a file' })
  @Examples({ body: { q: 'x' }, answer: { 'text/csv': 'a\n' } })
  create(@Body() _body: FindDto, @Query('dryRun') _dryRun: string, @Res({ passthrough: true }) _res: unknown) {}
}

@Controller('health')
class Unrelated {
  @Get('live')
  live() {}
}

describe('openApiPath', () => {
  it('joins and turns :params into {params}', () => {
    expect(openApiPath('v1/jobs', ':id/archive')).toBe('/v1/jobs/{id}/archive');
    expect(openApiPath('v1/jobs', '/')).toBe('/v1/jobs');
    expect(openApiPath('api', 'getjobs')).toBe('/api/getjobs');
    expect(openApiPath('v1', 'auth/whoami')).toBe('/v1/auth/whoami');
  });
});

describe('routesOf', () => {
  const routes = routesOf([SampleActions, SampleConnector, Unrelated]);
  const find = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path);

  it('finds the actions and connector routes only, sorted', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      'post /api/getcompany',
      'post /api/getjobs',
      'get /v1/things',
      'post /v1/things',
      'post /v1/things/{id}/archive',
    ]);
  });

  it('reads an action name and its @Data() DTO, ignoring the other parameters', () => {
    expect(find('post', '/api/getjobs')).toMatchObject({ surface: 'action', action: 'getjobs', data: FindDto, successStatus: 200 });
    expect(find('post', '/api/getcompany')?.data).toBeUndefined();
  });

  it('reads query, body, path parameters and status codes of connector routes', () => {
    expect(find('get', '/v1/things')).toMatchObject({ surface: 'connector', query: PageQuery, successStatus: 200, setsOwnStatus: false });
    expect(find('post', '/v1/things/{id}/archive')).toMatchObject({ pathParams: ['id'], successStatus: 200 });
    expect(find('post', '/v1/things')).toMatchObject({ body: FindDto, queryNames: ['dryRun'], successStatus: 201, setsOwnStatus: true });
  });

  it('reads a route’s @Examples and @ConnectorFiles', () => {
    expect(find('post', '/v1/things')).toMatchObject({
      files: { types: ['text/csv'], description: 'a file' },
      examples: { body: { q: 'x' }, answer: { 'text/csv': 'a\n' } },
    });
    expect(find('get', '/v1/things')?.examples).toBeUndefined();
  });
});
