/**
 * server/learn — recordings for the guided walkthroughs (/learn).
 *
 *   const r = await ctx.learn.recording('oomkilled');   // recorded once, then kept (tRPC context)
 *   r.initial, r.events                                        // replay with the shared reducer
 *   r.steps[i].t, .entities, .question                         // where each step looks, what it asks
 *
 * recordScenario runs a library scenario on an in-process simulated node through the driver and
 * the engine on a manual clock; verifyRecording replays a recording and checks every step.
 */
export { recordScenario, RecordingError, RECORDING_NODE, RECORDING_VERSION } from './record';
export { verifyRecording } from './verify';
export type { VerifyProblem } from './verify';
export { LearnService, summarize, recordingKey, WalkthroughNotFoundError } from './service';
export type { LearnServiceOptions } from './service';
export { QUESTIONS, questionSpec } from './questions';
export type { QuestionSpec } from './questions';
export type * from './types';
