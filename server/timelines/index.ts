/**
 * server/timelines — shareable incident timelines over the store: save, list, get, annotate,
 * delete, export (file, gzip) and import (validated, all or nothing). The file format is
 * lib/timeline/file (FORMAT.md).
 */
export { TimelinesService, fileStem } from './service';
export type { ExportedFile, TimelinesOptions, TimelinesStore } from './service';
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
