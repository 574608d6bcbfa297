/**
 * server/timelines — shareable incident timelines: save, list, get, annotate, delete, export
 * (file, gzip) and import (validated, all or nothing), over a data directory's store or, in
 * cluster mode on PostgreSQL, the cluster database (postgres.ts: import it only there, it is not
 * re-exported here so `npm start` never loads it). The file format is lib/timeline/file
 * (FORMAT.md).
 */
export { TimelinesService, fileStem } from './service';
export type { ExportedFile, LiveRecording, TimelinesOptions } from './service';
export { savedInStore } from './storage';
export type { SavedStorage, TimelinesStore } from './storage';
export { decodeUpload, decodeTextUpload } from './decode';
export { PODSCOPE_VERSION } from './version';
export { handleExport, handleImport, contentDisposition } from './http';
export { ImportGate, importGate, busyMessage } from './gate';
export {
  dataDir,
  readTimelineFileFrom,
  refusalLines,
  writeAtomically,
  requireDataDir,
} from './files';
