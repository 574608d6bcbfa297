import type { EngineApi } from '@/server/engine/api';

export interface Context {
  engine: EngineApi;
}
