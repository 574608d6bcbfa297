/**
 * A tRPC context for tests that exercise some of the services: the ones given are used, any
 * other fails the test loudly when a procedure reaches for it.
 */
import { createLogger } from '@/server/log';
import { EVERYTHING } from '@/server/security/viewer';
import type { Context } from '../context';

export function testContext(given: Partial<Context>): Context {
  const missing = (name: string) =>
    new Proxy(
      {},
      {
        get(_target, key) {
          throw new Error(`this test gave the context no ${name} (asked for ${String(key)})`);
        },
      },
    );
  return {
    engine: given.engine ?? (missing('engine') as Context['engine']),
    timelines: given.timelines ?? (missing('timelines') as Context['timelines']),
    learn: given.learn ?? (missing('learn') as Context['learn']),
    log: given.log ?? createLogger({ level: 'silent' }),
    viewer: given.viewer ?? EVERYTHING,
  };
}
