/** server/cri: the CRI wire. Proto shapes stop here; everything returned is a domain type. */
export {
  CriClient,
  EventsUnimplementedError,
  DEFAULT_TIMEOUT_MS,
  MAX_MESSAGE_BYTES,
  decodeListContainers,
  decodeListPodSandbox,
} from './client';
export type {
  CallOptions,
  CriClientOptions,
  ListContainerFilter,
  ListSandboxFilter,
  StatsFilter,
} from './client';
export { CriError, grpcCodeName, toCriError } from './errors';
export { EndpointError, parseEndpoint } from './endpoint';
export type { ParsedEndpoint } from './endpoint';
export { SIM_NODE_INFO_KEY } from './convert';
export {
  buildCreateContainerRequest,
  buildPodSandboxConfig,
  buildRunPodSandboxRequest,
} from './requests';
export { criDefinitions, criProtoPath } from './proto';
export type * from './types';
