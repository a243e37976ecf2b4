import { ConfigModule, CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';

/** What the company and key commands need: the database and the members services. */
@Module({ imports: [ConfigModule, DatabaseModule, CoreModule, MembersModule] })
export class CliModule {}
