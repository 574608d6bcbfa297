// Original file: proto/runtime/v1/api.proto

export interface KeyValue {
  key?: string;
  value?: string;
}

export interface KeyValue__Output {
  key: string;
  value: string;
}
