/**
 * Shareable timeline files (FORMAT.md): parse and validate with located errors, serialize,
 * build from a store's saved timeline, replay, and read gzip — pure and isomorphic.
 */
export * from './types';
export * from './limits';
export * from './errors';
export {
  parseTimelineText,
  parseTimelineBytes,
  parseDocument,
  safeParseTimeline,
  isGzip,
} from './parse';
export type { ParseOptions, ParseResult } from './parse';
export { serializeTimelineFile } from './serialize';
export { buildTimelineFile, sourceNodes } from './build';
export type { BuildInput } from './build';
export { stateAtTime, timelineTimes, countUntil } from './replay';
export type { Replayable } from './replay';
export { gunzipLimited, readStreamLimited, readTimelineFile } from './gzip';
export { inertText } from './display';
export type { InertOptions } from './display';
export { findJsonSyntaxError, locateIndex, firstInvalidUtf8 } from './text';
