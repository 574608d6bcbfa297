// Original file: proto/runtime/v1/api.proto

import type * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import type {
  ContainerEventResponse as _runtime_v1_ContainerEventResponse,
  ContainerEventResponse__Output as _runtime_v1_ContainerEventResponse__Output,
} from '../../runtime/v1/ContainerEventResponse';
import type {
  ContainerStatsRequest as _runtime_v1_ContainerStatsRequest,
  ContainerStatsRequest__Output as _runtime_v1_ContainerStatsRequest__Output,
} from '../../runtime/v1/ContainerStatsRequest';
import type {
  ContainerStatsResponse as _runtime_v1_ContainerStatsResponse,
  ContainerStatsResponse__Output as _runtime_v1_ContainerStatsResponse__Output,
} from '../../runtime/v1/ContainerStatsResponse';
import type {
  ContainerStatusRequest as _runtime_v1_ContainerStatusRequest,
  ContainerStatusRequest__Output as _runtime_v1_ContainerStatusRequest__Output,
} from '../../runtime/v1/ContainerStatusRequest';
import type {
  ContainerStatusResponse as _runtime_v1_ContainerStatusResponse,
  ContainerStatusResponse__Output as _runtime_v1_ContainerStatusResponse__Output,
} from '../../runtime/v1/ContainerStatusResponse';
import type {
  CreateContainerRequest as _runtime_v1_CreateContainerRequest,
  CreateContainerRequest__Output as _runtime_v1_CreateContainerRequest__Output,
} from '../../runtime/v1/CreateContainerRequest';
import type {
  CreateContainerResponse as _runtime_v1_CreateContainerResponse,
  CreateContainerResponse__Output as _runtime_v1_CreateContainerResponse__Output,
} from '../../runtime/v1/CreateContainerResponse';
import type {
  ExecSyncRequest as _runtime_v1_ExecSyncRequest,
  ExecSyncRequest__Output as _runtime_v1_ExecSyncRequest__Output,
} from '../../runtime/v1/ExecSyncRequest';
import type {
  ExecSyncResponse as _runtime_v1_ExecSyncResponse,
  ExecSyncResponse__Output as _runtime_v1_ExecSyncResponse__Output,
} from '../../runtime/v1/ExecSyncResponse';
import type {
  GetEventsRequest as _runtime_v1_GetEventsRequest,
  GetEventsRequest__Output as _runtime_v1_GetEventsRequest__Output,
} from '../../runtime/v1/GetEventsRequest';
import type {
  ListContainerStatsRequest as _runtime_v1_ListContainerStatsRequest,
  ListContainerStatsRequest__Output as _runtime_v1_ListContainerStatsRequest__Output,
} from '../../runtime/v1/ListContainerStatsRequest';
import type {
  ListContainerStatsResponse as _runtime_v1_ListContainerStatsResponse,
  ListContainerStatsResponse__Output as _runtime_v1_ListContainerStatsResponse__Output,
} from '../../runtime/v1/ListContainerStatsResponse';
import type {
  ListContainersRequest as _runtime_v1_ListContainersRequest,
  ListContainersRequest__Output as _runtime_v1_ListContainersRequest__Output,
} from '../../runtime/v1/ListContainersRequest';
import type {
  ListContainersResponse as _runtime_v1_ListContainersResponse,
  ListContainersResponse__Output as _runtime_v1_ListContainersResponse__Output,
} from '../../runtime/v1/ListContainersResponse';
import type {
  ListPodSandboxRequest as _runtime_v1_ListPodSandboxRequest,
  ListPodSandboxRequest__Output as _runtime_v1_ListPodSandboxRequest__Output,
} from '../../runtime/v1/ListPodSandboxRequest';
import type {
  ListPodSandboxResponse as _runtime_v1_ListPodSandboxResponse,
  ListPodSandboxResponse__Output as _runtime_v1_ListPodSandboxResponse__Output,
} from '../../runtime/v1/ListPodSandboxResponse';
import type {
  ListPodSandboxStatsRequest as _runtime_v1_ListPodSandboxStatsRequest,
  ListPodSandboxStatsRequest__Output as _runtime_v1_ListPodSandboxStatsRequest__Output,
} from '../../runtime/v1/ListPodSandboxStatsRequest';
import type {
  ListPodSandboxStatsResponse as _runtime_v1_ListPodSandboxStatsResponse,
  ListPodSandboxStatsResponse__Output as _runtime_v1_ListPodSandboxStatsResponse__Output,
} from '../../runtime/v1/ListPodSandboxStatsResponse';
import type {
  PodSandboxStatusRequest as _runtime_v1_PodSandboxStatusRequest,
  PodSandboxStatusRequest__Output as _runtime_v1_PodSandboxStatusRequest__Output,
} from '../../runtime/v1/PodSandboxStatusRequest';
import type {
  PodSandboxStatusResponse as _runtime_v1_PodSandboxStatusResponse,
  PodSandboxStatusResponse__Output as _runtime_v1_PodSandboxStatusResponse__Output,
} from '../../runtime/v1/PodSandboxStatusResponse';
import type {
  RemoveContainerRequest as _runtime_v1_RemoveContainerRequest,
  RemoveContainerRequest__Output as _runtime_v1_RemoveContainerRequest__Output,
} from '../../runtime/v1/RemoveContainerRequest';
import type {
  RemoveContainerResponse as _runtime_v1_RemoveContainerResponse,
  RemoveContainerResponse__Output as _runtime_v1_RemoveContainerResponse__Output,
} from '../../runtime/v1/RemoveContainerResponse';
import type {
  RemovePodSandboxRequest as _runtime_v1_RemovePodSandboxRequest,
  RemovePodSandboxRequest__Output as _runtime_v1_RemovePodSandboxRequest__Output,
} from '../../runtime/v1/RemovePodSandboxRequest';
import type {
  RemovePodSandboxResponse as _runtime_v1_RemovePodSandboxResponse,
  RemovePodSandboxResponse__Output as _runtime_v1_RemovePodSandboxResponse__Output,
} from '../../runtime/v1/RemovePodSandboxResponse';
import type {
  ReopenContainerLogRequest as _runtime_v1_ReopenContainerLogRequest,
  ReopenContainerLogRequest__Output as _runtime_v1_ReopenContainerLogRequest__Output,
} from '../../runtime/v1/ReopenContainerLogRequest';
import type {
  ReopenContainerLogResponse as _runtime_v1_ReopenContainerLogResponse,
  ReopenContainerLogResponse__Output as _runtime_v1_ReopenContainerLogResponse__Output,
} from '../../runtime/v1/ReopenContainerLogResponse';
import type {
  RunPodSandboxRequest as _runtime_v1_RunPodSandboxRequest,
  RunPodSandboxRequest__Output as _runtime_v1_RunPodSandboxRequest__Output,
} from '../../runtime/v1/RunPodSandboxRequest';
import type {
  RunPodSandboxResponse as _runtime_v1_RunPodSandboxResponse,
  RunPodSandboxResponse__Output as _runtime_v1_RunPodSandboxResponse__Output,
} from '../../runtime/v1/RunPodSandboxResponse';
import type {
  StartContainerRequest as _runtime_v1_StartContainerRequest,
  StartContainerRequest__Output as _runtime_v1_StartContainerRequest__Output,
} from '../../runtime/v1/StartContainerRequest';
import type {
  StartContainerResponse as _runtime_v1_StartContainerResponse,
  StartContainerResponse__Output as _runtime_v1_StartContainerResponse__Output,
} from '../../runtime/v1/StartContainerResponse';
import type {
  StatusRequest as _runtime_v1_StatusRequest,
  StatusRequest__Output as _runtime_v1_StatusRequest__Output,
} from '../../runtime/v1/StatusRequest';
import type {
  StatusResponse as _runtime_v1_StatusResponse,
  StatusResponse__Output as _runtime_v1_StatusResponse__Output,
} from '../../runtime/v1/StatusResponse';
import type {
  StopContainerRequest as _runtime_v1_StopContainerRequest,
  StopContainerRequest__Output as _runtime_v1_StopContainerRequest__Output,
} from '../../runtime/v1/StopContainerRequest';
import type {
  StopContainerResponse as _runtime_v1_StopContainerResponse,
  StopContainerResponse__Output as _runtime_v1_StopContainerResponse__Output,
} from '../../runtime/v1/StopContainerResponse';
import type {
  StopPodSandboxRequest as _runtime_v1_StopPodSandboxRequest,
  StopPodSandboxRequest__Output as _runtime_v1_StopPodSandboxRequest__Output,
} from '../../runtime/v1/StopPodSandboxRequest';
import type {
  StopPodSandboxResponse as _runtime_v1_StopPodSandboxResponse,
  StopPodSandboxResponse__Output as _runtime_v1_StopPodSandboxResponse__Output,
} from '../../runtime/v1/StopPodSandboxResponse';
import type {
  VersionRequest as _runtime_v1_VersionRequest,
  VersionRequest__Output as _runtime_v1_VersionRequest__Output,
} from '../../runtime/v1/VersionRequest';
import type {
  VersionResponse as _runtime_v1_VersionResponse,
  VersionResponse__Output as _runtime_v1_VersionResponse__Output,
} from '../../runtime/v1/VersionResponse';

export interface RuntimeServiceClient extends grpc.Client {
  ContainerStats(
    argument: _runtime_v1_ContainerStatsRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ContainerStats(
    argument: _runtime_v1_ContainerStatsRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ContainerStats(
    argument: _runtime_v1_ContainerStatsRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ContainerStats(
    argument: _runtime_v1_ContainerStatsRequest,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  containerStats(
    argument: _runtime_v1_ContainerStatsRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  containerStats(
    argument: _runtime_v1_ContainerStatsRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  containerStats(
    argument: _runtime_v1_ContainerStatsRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  containerStats(
    argument: _runtime_v1_ContainerStatsRequest,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;

  ContainerStatus(
    argument: _runtime_v1_ContainerStatusRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  ContainerStatus(
    argument: _runtime_v1_ContainerStatusRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  ContainerStatus(
    argument: _runtime_v1_ContainerStatusRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  ContainerStatus(
    argument: _runtime_v1_ContainerStatusRequest,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  containerStatus(
    argument: _runtime_v1_ContainerStatusRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  containerStatus(
    argument: _runtime_v1_ContainerStatusRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  containerStatus(
    argument: _runtime_v1_ContainerStatusRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  containerStatus(
    argument: _runtime_v1_ContainerStatusRequest,
    callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>,
  ): grpc.ClientUnaryCall;

  CreateContainer(
    argument: _runtime_v1_CreateContainerRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  CreateContainer(
    argument: _runtime_v1_CreateContainerRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  CreateContainer(
    argument: _runtime_v1_CreateContainerRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  CreateContainer(
    argument: _runtime_v1_CreateContainerRequest,
    callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  createContainer(
    argument: _runtime_v1_CreateContainerRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  createContainer(
    argument: _runtime_v1_CreateContainerRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  createContainer(
    argument: _runtime_v1_CreateContainerRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  createContainer(
    argument: _runtime_v1_CreateContainerRequest,
    callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>,
  ): grpc.ClientUnaryCall;

  ExecSync(
    argument: _runtime_v1_ExecSyncRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>,
  ): grpc.ClientUnaryCall;
  ExecSync(
    argument: _runtime_v1_ExecSyncRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>,
  ): grpc.ClientUnaryCall;
  ExecSync(
    argument: _runtime_v1_ExecSyncRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>,
  ): grpc.ClientUnaryCall;
  ExecSync(
    argument: _runtime_v1_ExecSyncRequest,
    callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>,
  ): grpc.ClientUnaryCall;
  execSync(
    argument: _runtime_v1_ExecSyncRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>,
  ): grpc.ClientUnaryCall;
  execSync(
    argument: _runtime_v1_ExecSyncRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>,
  ): grpc.ClientUnaryCall;
  execSync(
    argument: _runtime_v1_ExecSyncRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>,
  ): grpc.ClientUnaryCall;
  execSync(
    argument: _runtime_v1_ExecSyncRequest,
    callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>,
  ): grpc.ClientUnaryCall;

  GetContainerEvents(
    argument: _runtime_v1_GetEventsRequest,
    metadata: grpc.Metadata,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_runtime_v1_ContainerEventResponse__Output>;
  GetContainerEvents(
    argument: _runtime_v1_GetEventsRequest,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_runtime_v1_ContainerEventResponse__Output>;
  getContainerEvents(
    argument: _runtime_v1_GetEventsRequest,
    metadata: grpc.Metadata,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_runtime_v1_ContainerEventResponse__Output>;
  getContainerEvents(
    argument: _runtime_v1_GetEventsRequest,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<_runtime_v1_ContainerEventResponse__Output>;

  ListContainerStats(
    argument: _runtime_v1_ListContainerStatsRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListContainerStats(
    argument: _runtime_v1_ListContainerStatsRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListContainerStats(
    argument: _runtime_v1_ListContainerStatsRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListContainerStats(
    argument: _runtime_v1_ListContainerStatsRequest,
    callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listContainerStats(
    argument: _runtime_v1_ListContainerStatsRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listContainerStats(
    argument: _runtime_v1_ListContainerStatsRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listContainerStats(
    argument: _runtime_v1_ListContainerStatsRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listContainerStats(
    argument: _runtime_v1_ListContainerStatsRequest,
    callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>,
  ): grpc.ClientUnaryCall;

  ListContainers(
    argument: _runtime_v1_ListContainersRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListContainers(
    argument: _runtime_v1_ListContainersRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListContainers(
    argument: _runtime_v1_ListContainersRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListContainers(
    argument: _runtime_v1_ListContainersRequest,
    callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>,
  ): grpc.ClientUnaryCall;
  listContainers(
    argument: _runtime_v1_ListContainersRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>,
  ): grpc.ClientUnaryCall;
  listContainers(
    argument: _runtime_v1_ListContainersRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>,
  ): grpc.ClientUnaryCall;
  listContainers(
    argument: _runtime_v1_ListContainersRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>,
  ): grpc.ClientUnaryCall;
  listContainers(
    argument: _runtime_v1_ListContainersRequest,
    callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>,
  ): grpc.ClientUnaryCall;

  ListPodSandbox(
    argument: _runtime_v1_ListPodSandboxRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListPodSandbox(
    argument: _runtime_v1_ListPodSandboxRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListPodSandbox(
    argument: _runtime_v1_ListPodSandboxRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListPodSandbox(
    argument: _runtime_v1_ListPodSandboxRequest,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  listPodSandbox(
    argument: _runtime_v1_ListPodSandboxRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  listPodSandbox(
    argument: _runtime_v1_ListPodSandboxRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  listPodSandbox(
    argument: _runtime_v1_ListPodSandboxRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  listPodSandbox(
    argument: _runtime_v1_ListPodSandboxRequest,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;

  ListPodSandboxStats(
    argument: _runtime_v1_ListPodSandboxStatsRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListPodSandboxStats(
    argument: _runtime_v1_ListPodSandboxStatsRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListPodSandboxStats(
    argument: _runtime_v1_ListPodSandboxStatsRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  ListPodSandboxStats(
    argument: _runtime_v1_ListPodSandboxStatsRequest,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listPodSandboxStats(
    argument: _runtime_v1_ListPodSandboxStatsRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listPodSandboxStats(
    argument: _runtime_v1_ListPodSandboxStatsRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listPodSandboxStats(
    argument: _runtime_v1_ListPodSandboxStatsRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>,
  ): grpc.ClientUnaryCall;
  listPodSandboxStats(
    argument: _runtime_v1_ListPodSandboxStatsRequest,
    callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>,
  ): grpc.ClientUnaryCall;

  PodSandboxStatus(
    argument: _runtime_v1_PodSandboxStatusRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  PodSandboxStatus(
    argument: _runtime_v1_PodSandboxStatusRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  PodSandboxStatus(
    argument: _runtime_v1_PodSandboxStatusRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  PodSandboxStatus(
    argument: _runtime_v1_PodSandboxStatusRequest,
    callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  podSandboxStatus(
    argument: _runtime_v1_PodSandboxStatusRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  podSandboxStatus(
    argument: _runtime_v1_PodSandboxStatusRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  podSandboxStatus(
    argument: _runtime_v1_PodSandboxStatusRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  podSandboxStatus(
    argument: _runtime_v1_PodSandboxStatusRequest,
    callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>,
  ): grpc.ClientUnaryCall;

  RemoveContainer(
    argument: _runtime_v1_RemoveContainerRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  RemoveContainer(
    argument: _runtime_v1_RemoveContainerRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  RemoveContainer(
    argument: _runtime_v1_RemoveContainerRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  RemoveContainer(
    argument: _runtime_v1_RemoveContainerRequest,
    callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  removeContainer(
    argument: _runtime_v1_RemoveContainerRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  removeContainer(
    argument: _runtime_v1_RemoveContainerRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  removeContainer(
    argument: _runtime_v1_RemoveContainerRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  removeContainer(
    argument: _runtime_v1_RemoveContainerRequest,
    callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>,
  ): grpc.ClientUnaryCall;

  RemovePodSandbox(
    argument: _runtime_v1_RemovePodSandboxRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  RemovePodSandbox(
    argument: _runtime_v1_RemovePodSandboxRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  RemovePodSandbox(
    argument: _runtime_v1_RemovePodSandboxRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  RemovePodSandbox(
    argument: _runtime_v1_RemovePodSandboxRequest,
    callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  removePodSandbox(
    argument: _runtime_v1_RemovePodSandboxRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  removePodSandbox(
    argument: _runtime_v1_RemovePodSandboxRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  removePodSandbox(
    argument: _runtime_v1_RemovePodSandboxRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  removePodSandbox(
    argument: _runtime_v1_RemovePodSandboxRequest,
    callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;

  ReopenContainerLog(
    argument: _runtime_v1_ReopenContainerLogRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>,
  ): grpc.ClientUnaryCall;
  ReopenContainerLog(
    argument: _runtime_v1_ReopenContainerLogRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>,
  ): grpc.ClientUnaryCall;
  ReopenContainerLog(
    argument: _runtime_v1_ReopenContainerLogRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>,
  ): grpc.ClientUnaryCall;
  ReopenContainerLog(
    argument: _runtime_v1_ReopenContainerLogRequest,
    callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>,
  ): grpc.ClientUnaryCall;
  reopenContainerLog(
    argument: _runtime_v1_ReopenContainerLogRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>,
  ): grpc.ClientUnaryCall;
  reopenContainerLog(
    argument: _runtime_v1_ReopenContainerLogRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>,
  ): grpc.ClientUnaryCall;
  reopenContainerLog(
    argument: _runtime_v1_ReopenContainerLogRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>,
  ): grpc.ClientUnaryCall;
  reopenContainerLog(
    argument: _runtime_v1_ReopenContainerLogRequest,
    callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>,
  ): grpc.ClientUnaryCall;

  RunPodSandbox(
    argument: _runtime_v1_RunPodSandboxRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  RunPodSandbox(
    argument: _runtime_v1_RunPodSandboxRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  RunPodSandbox(
    argument: _runtime_v1_RunPodSandboxRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  RunPodSandbox(
    argument: _runtime_v1_RunPodSandboxRequest,
    callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  runPodSandbox(
    argument: _runtime_v1_RunPodSandboxRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  runPodSandbox(
    argument: _runtime_v1_RunPodSandboxRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  runPodSandbox(
    argument: _runtime_v1_RunPodSandboxRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  runPodSandbox(
    argument: _runtime_v1_RunPodSandboxRequest,
    callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;

  StartContainer(
    argument: _runtime_v1_StartContainerRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  StartContainer(
    argument: _runtime_v1_StartContainerRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  StartContainer(
    argument: _runtime_v1_StartContainerRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  StartContainer(
    argument: _runtime_v1_StartContainerRequest,
    callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  startContainer(
    argument: _runtime_v1_StartContainerRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  startContainer(
    argument: _runtime_v1_StartContainerRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  startContainer(
    argument: _runtime_v1_StartContainerRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  startContainer(
    argument: _runtime_v1_StartContainerRequest,
    callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>,
  ): grpc.ClientUnaryCall;

  Status(
    argument: _runtime_v1_StatusRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  Status(
    argument: _runtime_v1_StatusRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  Status(
    argument: _runtime_v1_StatusRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  Status(
    argument: _runtime_v1_StatusRequest,
    callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  status(
    argument: _runtime_v1_StatusRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  status(
    argument: _runtime_v1_StatusRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  status(
    argument: _runtime_v1_StatusRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>,
  ): grpc.ClientUnaryCall;
  status(
    argument: _runtime_v1_StatusRequest,
    callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>,
  ): grpc.ClientUnaryCall;

  StopContainer(
    argument: _runtime_v1_StopContainerRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  StopContainer(
    argument: _runtime_v1_StopContainerRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  StopContainer(
    argument: _runtime_v1_StopContainerRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  StopContainer(
    argument: _runtime_v1_StopContainerRequest,
    callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  stopContainer(
    argument: _runtime_v1_StopContainerRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  stopContainer(
    argument: _runtime_v1_StopContainerRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  stopContainer(
    argument: _runtime_v1_StopContainerRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>,
  ): grpc.ClientUnaryCall;
  stopContainer(
    argument: _runtime_v1_StopContainerRequest,
    callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>,
  ): grpc.ClientUnaryCall;

  StopPodSandbox(
    argument: _runtime_v1_StopPodSandboxRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  StopPodSandbox(
    argument: _runtime_v1_StopPodSandboxRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  StopPodSandbox(
    argument: _runtime_v1_StopPodSandboxRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  StopPodSandbox(
    argument: _runtime_v1_StopPodSandboxRequest,
    callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  stopPodSandbox(
    argument: _runtime_v1_StopPodSandboxRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  stopPodSandbox(
    argument: _runtime_v1_StopPodSandboxRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  stopPodSandbox(
    argument: _runtime_v1_StopPodSandboxRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;
  stopPodSandbox(
    argument: _runtime_v1_StopPodSandboxRequest,
    callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>,
  ): grpc.ClientUnaryCall;

  Version(
    argument: _runtime_v1_VersionRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>,
  ): grpc.ClientUnaryCall;
  Version(
    argument: _runtime_v1_VersionRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>,
  ): grpc.ClientUnaryCall;
  Version(
    argument: _runtime_v1_VersionRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>,
  ): grpc.ClientUnaryCall;
  Version(
    argument: _runtime_v1_VersionRequest,
    callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>,
  ): grpc.ClientUnaryCall;
  version(
    argument: _runtime_v1_VersionRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>,
  ): grpc.ClientUnaryCall;
  version(
    argument: _runtime_v1_VersionRequest,
    metadata: grpc.Metadata,
    callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>,
  ): grpc.ClientUnaryCall;
  version(
    argument: _runtime_v1_VersionRequest,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>,
  ): grpc.ClientUnaryCall;
  version(
    argument: _runtime_v1_VersionRequest,
    callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>,
  ): grpc.ClientUnaryCall;
}

export interface RuntimeServiceHandlers extends grpc.UntypedServiceImplementation {
  ContainerStats: grpc.handleUnaryCall<
    _runtime_v1_ContainerStatsRequest__Output,
    _runtime_v1_ContainerStatsResponse
  >;

  ContainerStatus: grpc.handleUnaryCall<
    _runtime_v1_ContainerStatusRequest__Output,
    _runtime_v1_ContainerStatusResponse
  >;

  CreateContainer: grpc.handleUnaryCall<
    _runtime_v1_CreateContainerRequest__Output,
    _runtime_v1_CreateContainerResponse
  >;

  ExecSync: grpc.handleUnaryCall<_runtime_v1_ExecSyncRequest__Output, _runtime_v1_ExecSyncResponse>;

  GetContainerEvents: grpc.handleServerStreamingCall<
    _runtime_v1_GetEventsRequest__Output,
    _runtime_v1_ContainerEventResponse
  >;

  ListContainerStats: grpc.handleUnaryCall<
    _runtime_v1_ListContainerStatsRequest__Output,
    _runtime_v1_ListContainerStatsResponse
  >;

  ListContainers: grpc.handleUnaryCall<
    _runtime_v1_ListContainersRequest__Output,
    _runtime_v1_ListContainersResponse
  >;

  ListPodSandbox: grpc.handleUnaryCall<
    _runtime_v1_ListPodSandboxRequest__Output,
    _runtime_v1_ListPodSandboxResponse
  >;

  ListPodSandboxStats: grpc.handleUnaryCall<
    _runtime_v1_ListPodSandboxStatsRequest__Output,
    _runtime_v1_ListPodSandboxStatsResponse
  >;

  PodSandboxStatus: grpc.handleUnaryCall<
    _runtime_v1_PodSandboxStatusRequest__Output,
    _runtime_v1_PodSandboxStatusResponse
  >;

  RemoveContainer: grpc.handleUnaryCall<
    _runtime_v1_RemoveContainerRequest__Output,
    _runtime_v1_RemoveContainerResponse
  >;

  RemovePodSandbox: grpc.handleUnaryCall<
    _runtime_v1_RemovePodSandboxRequest__Output,
    _runtime_v1_RemovePodSandboxResponse
  >;

  ReopenContainerLog: grpc.handleUnaryCall<
    _runtime_v1_ReopenContainerLogRequest__Output,
    _runtime_v1_ReopenContainerLogResponse
  >;

  RunPodSandbox: grpc.handleUnaryCall<
    _runtime_v1_RunPodSandboxRequest__Output,
    _runtime_v1_RunPodSandboxResponse
  >;

  StartContainer: grpc.handleUnaryCall<
    _runtime_v1_StartContainerRequest__Output,
    _runtime_v1_StartContainerResponse
  >;

  Status: grpc.handleUnaryCall<_runtime_v1_StatusRequest__Output, _runtime_v1_StatusResponse>;

  StopContainer: grpc.handleUnaryCall<
    _runtime_v1_StopContainerRequest__Output,
    _runtime_v1_StopContainerResponse
  >;

  StopPodSandbox: grpc.handleUnaryCall<
    _runtime_v1_StopPodSandboxRequest__Output,
    _runtime_v1_StopPodSandboxResponse
  >;

  Version: grpc.handleUnaryCall<_runtime_v1_VersionRequest__Output, _runtime_v1_VersionResponse>;
}

export interface RuntimeServiceDefinition extends grpc.ServiceDefinition {
  ContainerStats: MethodDefinition<
    _runtime_v1_ContainerStatsRequest,
    _runtime_v1_ContainerStatsResponse,
    _runtime_v1_ContainerStatsRequest__Output,
    _runtime_v1_ContainerStatsResponse__Output
  >;
  ContainerStatus: MethodDefinition<
    _runtime_v1_ContainerStatusRequest,
    _runtime_v1_ContainerStatusResponse,
    _runtime_v1_ContainerStatusRequest__Output,
    _runtime_v1_ContainerStatusResponse__Output
  >;
  CreateContainer: MethodDefinition<
    _runtime_v1_CreateContainerRequest,
    _runtime_v1_CreateContainerResponse,
    _runtime_v1_CreateContainerRequest__Output,
    _runtime_v1_CreateContainerResponse__Output
  >;
  ExecSync: MethodDefinition<
    _runtime_v1_ExecSyncRequest,
    _runtime_v1_ExecSyncResponse,
    _runtime_v1_ExecSyncRequest__Output,
    _runtime_v1_ExecSyncResponse__Output
  >;
  GetContainerEvents: MethodDefinition<
    _runtime_v1_GetEventsRequest,
    _runtime_v1_ContainerEventResponse,
    _runtime_v1_GetEventsRequest__Output,
    _runtime_v1_ContainerEventResponse__Output
  >;
  ListContainerStats: MethodDefinition<
    _runtime_v1_ListContainerStatsRequest,
    _runtime_v1_ListContainerStatsResponse,
    _runtime_v1_ListContainerStatsRequest__Output,
    _runtime_v1_ListContainerStatsResponse__Output
  >;
  ListContainers: MethodDefinition<
    _runtime_v1_ListContainersRequest,
    _runtime_v1_ListContainersResponse,
    _runtime_v1_ListContainersRequest__Output,
    _runtime_v1_ListContainersResponse__Output
  >;
  ListPodSandbox: MethodDefinition<
    _runtime_v1_ListPodSandboxRequest,
    _runtime_v1_ListPodSandboxResponse,
    _runtime_v1_ListPodSandboxRequest__Output,
    _runtime_v1_ListPodSandboxResponse__Output
  >;
  ListPodSandboxStats: MethodDefinition<
    _runtime_v1_ListPodSandboxStatsRequest,
    _runtime_v1_ListPodSandboxStatsResponse,
    _runtime_v1_ListPodSandboxStatsRequest__Output,
    _runtime_v1_ListPodSandboxStatsResponse__Output
  >;
  PodSandboxStatus: MethodDefinition<
    _runtime_v1_PodSandboxStatusRequest,
    _runtime_v1_PodSandboxStatusResponse,
    _runtime_v1_PodSandboxStatusRequest__Output,
    _runtime_v1_PodSandboxStatusResponse__Output
  >;
  RemoveContainer: MethodDefinition<
    _runtime_v1_RemoveContainerRequest,
    _runtime_v1_RemoveContainerResponse,
    _runtime_v1_RemoveContainerRequest__Output,
    _runtime_v1_RemoveContainerResponse__Output
  >;
  RemovePodSandbox: MethodDefinition<
    _runtime_v1_RemovePodSandboxRequest,
    _runtime_v1_RemovePodSandboxResponse,
    _runtime_v1_RemovePodSandboxRequest__Output,
    _runtime_v1_RemovePodSandboxResponse__Output
  >;
  ReopenContainerLog: MethodDefinition<
    _runtime_v1_ReopenContainerLogRequest,
    _runtime_v1_ReopenContainerLogResponse,
    _runtime_v1_ReopenContainerLogRequest__Output,
    _runtime_v1_ReopenContainerLogResponse__Output
  >;
  RunPodSandbox: MethodDefinition<
    _runtime_v1_RunPodSandboxRequest,
    _runtime_v1_RunPodSandboxResponse,
    _runtime_v1_RunPodSandboxRequest__Output,
    _runtime_v1_RunPodSandboxResponse__Output
  >;
  StartContainer: MethodDefinition<
    _runtime_v1_StartContainerRequest,
    _runtime_v1_StartContainerResponse,
    _runtime_v1_StartContainerRequest__Output,
    _runtime_v1_StartContainerResponse__Output
  >;
  Status: MethodDefinition<
    _runtime_v1_StatusRequest,
    _runtime_v1_StatusResponse,
    _runtime_v1_StatusRequest__Output,
    _runtime_v1_StatusResponse__Output
  >;
  StopContainer: MethodDefinition<
    _runtime_v1_StopContainerRequest,
    _runtime_v1_StopContainerResponse,
    _runtime_v1_StopContainerRequest__Output,
    _runtime_v1_StopContainerResponse__Output
  >;
  StopPodSandbox: MethodDefinition<
    _runtime_v1_StopPodSandboxRequest,
    _runtime_v1_StopPodSandboxResponse,
    _runtime_v1_StopPodSandboxRequest__Output,
    _runtime_v1_StopPodSandboxResponse__Output
  >;
  Version: MethodDefinition<
    _runtime_v1_VersionRequest,
    _runtime_v1_VersionResponse,
    _runtime_v1_VersionRequest__Output,
    _runtime_v1_VersionResponse__Output
  >;
}
