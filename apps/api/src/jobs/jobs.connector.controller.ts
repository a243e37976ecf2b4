import { AuthContext, DomainError, invalid, mayCallAction, notFound } from '@app/core';
import {
  ConnectorJobBody,
  connectorBodyToJobFields,
  JobWrite,
  JobsQueryService,
  JobsService,
  parseJobWrite,
  Progress,
  toConnectorError,
  toConnectorJob,
  ConnectorJobsQueryDto,
} from '@app/jobs';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { Response } from 'express';
import { ACTION_ROLES } from '../envelope/action-roles';
import { Caller, ConnectorAuth } from '../envelope/decorators';

/** Connector polling page size (spec "Limits"): default and maximum. */
export const CONNECTOR_JOBS_LIMIT = 100;

/** Templates are never visible on /v1, whatever id is sent. */
const connectorId = (id: string) => {
  if (id.startsWith('tpl-')) throw notFound(`job ${id}`);
  return id;
};

function allow(ctx: AuthContext, action: 'createjobs' | 'archivejobs' | 'deletejobs') {
  if (!mayCallAction(ACTION_ROLES, ctx.role, action))
    throw new DomainError('forbidden', `a ${ctx.role} may not ${action.replace('jobs', '')} jobs`);
}

/**
 * Runs `fn` with the body as a typed job write at `path` (the action API's, so the service names
 * its fields the same way on both surfaces) and rethrows job errors with the connector's field names.
 */
async function withConnectorWrite<T>(body: ConnectorJobBody, path: string, fn: (write: JobWrite) => Promise<T>): Promise<T> {
  try {
    return await fn(parseJobWrite(connectorBodyToJobFields(body), path));
  } catch (err) {
    throw toConnectorError(err, path);
  }
}

/** `/v1/jobs` (spec "Connector API"; shapes in CONTRACTS.md "Connector /v1"). */
@Controller('v1/jobs')
@ConnectorAuth()
export class JobsConnectorController {
  constructor(
    private readonly jobs: JobsService,
    private readonly query: JobsQueryService,
  ) {}

  @Get()
  async list(@Caller() ctx: AuthContext, @Query() q: ConnectorJobsQueryDto) {
    const views = await this.query.listForConnector(ctx, {
      createdSince: q.createdSince,
      updatedSince: q.updatedSince,
      progress: q.progress?.split(',') as Progress[] | undefined,
      includeArchived: q.includeArchived ?? false,
      limit: Math.min(q.limit ?? CONNECTOR_JOBS_LIMIT, CONNECTOR_JOBS_LIMIT),
      skip: q.skip ?? 0,
      externalId: q.externalId,
      assigneeUsername: q.assigneeUsername,
    });
    return { data: { items: views.map(toConnectorJob) } };
  }

  @Get(':id')
  async one(@Caller() ctx: AuthContext, @Param('id') id: string) {
    const [view] = await this.query.getJobs(ctx, { id: connectorId(id), includeArchived: 1 });
    if (!view) throw notFound(`job ${id}`);
    return { data: { items: [toConnectorJob(view)] } };
  }

  /** 201 when created; 200 when `externalId` matched an existing job, which was updated. */
  @Post()
  async create(@Caller() ctx: AuthContext, @Body() body: ConnectorJobBody, @Res({ passthrough: true }) res: Response) {
    allow(ctx, 'createjobs');
    if (body.id !== undefined) throw invalid('body.id', 'is read-only on create');
    if (body.title === undefined) throw invalid('body.title', 'is required');
    const { jobs, created } = await withConnectorWrite(body, 'data.jobs[0]', (write) =>
      this.jobs.createJobs(ctx, { jobs: [write] }, 'connector'),
    );
    res.status(created[0] ? 201 : 200);
    return { data: { items: [toConnectorJob(jobs[0])] } };
  }

  @Patch()
  @HttpCode(200)
  async patch(@Caller() ctx: AuthContext, @Body() body: ConnectorJobBody) {
    if (body.id === undefined) throw invalid('body.id', 'is required');
    return this.update(ctx, body.id, body);
  }

  @Patch(':id')
  @HttpCode(200)
  async patchOne(@Caller() ctx: AuthContext, @Param('id') id: string, @Body() body: ConnectorJobBody) {
    if (body.id !== undefined && body.id !== id) throw invalid('body.id', 'differs from the id in the path');
    return this.update(ctx, id, body);
  }

  @Post(':id/archive')
  @HttpCode(200)
  async archive(@Caller() ctx: AuthContext, @Param('id') id: string) {
    allow(ctx, 'archivejobs');
    const [view] = await this.jobs.changeLifecycle(ctx, 'archive', [connectorId(id)]);
    return { data: { items: [toConnectorJob(view)] } };
  }

  @Delete(':id')
  @HttpCode(200)
  async remove(@Caller() ctx: AuthContext, @Param('id') id: string) {
    allow(ctx, 'deletejobs');
    await this.jobs.changeLifecycle(ctx, 'delete', [connectorId(id)]);
    return { data: { id, deleted: true } };
  }

  private async update(ctx: AuthContext, id: string, body: ConnectorJobBody) {
    const { id: _id, ...rest } = body;
    const jobId = connectorId(id);
    const [view] = await withConnectorWrite(rest, `data.jobs.${jobId}`, (write) =>
      this.jobs.editJobs(ctx, { jobs: [{ id: jobId, write }] }),
    );
    return { data: { items: [toConnectorJob(view)] } };
  }
}
