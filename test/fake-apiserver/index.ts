export {
  FakeApiServer,
  type FakeApiServerOptions,
  type FakeGrant,
  type FakeUser,
  type RequestRecord,
} from './server';
export { FakeStore, RESOURCES, type Resource, type StoredObject } from './store';
export { FIXTURE_NOW, UIDS, fixture, seed } from './fixtures';
export { opensslAvailable } from './tls';
export { waitFor } from './wait';
