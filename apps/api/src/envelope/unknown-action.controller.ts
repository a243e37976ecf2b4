import { notFound } from '@app/core';
import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ActionAuthGuard } from './action-auth.guard';

/**
 * Registered last: any `POST /api/<name>` no controller claims. The guard authenticates first
 * (CONTRACTS.md order: authentication before unknown action), then this answers 1001/404.
 */
@Controller('api')
export class UnknownActionController {
  @Post(':action')
  @HttpCode(404)
  @UseGuards(ActionAuthGuard)
  unknown(@Param('action') action: string): never {
    throw notFound(`action ${action}`);
  }
}
