import { createCallerFactory, router } from './init';
import { clusterRouter } from './routers/cluster';
import { learnRouter } from './routers/learn';
import { nodesRouter } from './routers/nodes';
import { overviewRouter } from './routers/overview';
import { timelineRouter } from './routers/timeline';
import { timelinesRouter } from './routers/timelines';

export const appRouter = router({
  cluster: clusterRouter,
  timeline: timelineRouter,
  nodes: nodesRouter,
  timelines: timelinesRouter,
  learn: learnRouter,
  overview: overviewRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
