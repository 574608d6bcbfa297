/**
 * The walkthroughs' data as the browser receives it, typed from the router's outputs (the
 * server's `learn` procedures) rather than imported from the server tree.
 */
import type { RouterOutputs } from '@/trpc/client';

export type WalkthroughSummary = RouterOutputs['learn']['list'][number];
export type Recording = RouterOutputs['learn']['recording'];
export type RecordedStep = Recording['steps'][number];
export type Question = NonNullable<RecordedStep['question']>;
export type Focus = Question['focus'][number];
