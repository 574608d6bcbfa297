/**
 * What every tRPC procedure may use: the services of the running Podscope, built once by the
 * composition root (server/runtime) and handed to each request as they are. Routers hold no
 * state and find no service any other way.
 */
import type { EngineApi } from '@/server/engine/api';
import type { LearnService } from '@/server/learn/service';
import type { TimelinesService } from '@/server/timelines/service';

export interface Context {
  engine: EngineApi;
  timelines: TimelinesService;
  learn: LearnService;
}
