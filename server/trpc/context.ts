/**
 * What every tRPC procedure may use: the services of the running Podscope, built once by the
 * composition root (server/runtime) and handed to each request as they are, and the request's
 * logger (its lines carry the request id). Routers hold no state and find no service any other
 * way.
 */
import type { EngineApi } from '@/server/engine/api';
import type { LearnService } from '@/server/learn/service';
import type { Logger } from '@/server/log';
import type { Viewer } from '@/server/security/viewer';
import type { TimelinesService } from '@/server/timelines/service';

export interface Services {
  engine: EngineApi;
  timelines: TimelinesService;
  learn: LearnService;
}

export interface Context extends Services {
  log: Logger;
  /** What the person behind this request may see and do (server/security/viewer.ts). */
  viewer: Viewer;
}
