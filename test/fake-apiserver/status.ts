/** A meta/v1 Status of failure, as the API server answers an error. */
export const status = (code: number, reason: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason,
  code,
});
