/**
 * Real nats-server and PostgreSQL for the cluster tests (integration project, `npm test`). They
 * never skip: a missing binary is a failing test that says what to install.
 */
export { startNats, natsMissing, NATS_SERVER_BIN, type NatsInstance } from './nats';
export { startPostgres, postgresMissing, PG_BIN_DIR, type PostgresInstance } from './postgres';
export { startNatsAndPostgres } from './both';
export { freePort, NATS_PORTS, PG_PORTS, type PortRange } from './ports';
export { sweepStale, BASE_DIR } from './stale';
