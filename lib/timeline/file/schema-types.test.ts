/**
 * The file schema and the event types share their vocabularies (events.ts declares each list
 * once); these checks fail the typecheck if either side drifts: what the schema accepts is
 * exactly what the types allow, kind by kind.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { TimelineEvent } from '../events';
import type { buildSchema } from './schema';

type Parsed = z.infer<ReturnType<typeof buildSchema>>['events'][number];
type Of<E, K> = Extract<E, { kind: K }>;

describe('the file schema and the event types', () => {
  it('agree on kinds and on each kind’s types', () => {
    expectTypeOf<Parsed['kind']>().toEqualTypeOf<TimelineEvent['kind']>();
    expectTypeOf<Of<Parsed, 'cri'>['type']>().toEqualTypeOf<Of<TimelineEvent, 'cri'>['type']>();
    expectTypeOf<Of<Parsed, 'cri'>['source']>().toEqualTypeOf<Of<TimelineEvent, 'cri'>['source']>();
    expectTypeOf<Of<Parsed, 'container'>['type']>().toEqualTypeOf<
      Of<TimelineEvent, 'container'>['type']
    >();
    expectTypeOf<Of<Parsed, 'container'>['list']>().toEqualTypeOf<
      Of<TimelineEvent, 'container'>['list']
    >();
    expectTypeOf<Of<Parsed, 'pod'>['type']>().toEqualTypeOf<Of<TimelineEvent, 'pod'>['type']>();
    expectTypeOf<Of<Parsed, 'node'>['type']>().toEqualTypeOf<Of<TimelineEvent, 'node'>['type']>();
    expectTypeOf<Of<Parsed, 'k8s'>['eventType']>().toEqualTypeOf<
      Of<TimelineEvent, 'k8s'>['eventType']
    >();
  });
});
