import { ConfigModule, CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { JobsModule } from '@app/jobs';
import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';

/** What the company, key and demo commands need: the database and the domain services. */
@Module({ imports: [ConfigModule, DatabaseModule, CoreModule, MembersModule, JobsModule] })
export class CliModule {}
