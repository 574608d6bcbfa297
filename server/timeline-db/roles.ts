/**
 * Least privilege on PostgreSQL: the schema's owner runs the migrations (`podscope migrate`);
 * the consoles connect as a role of their own that may read and write the timeline's rows and
 * nothing else — no DDL, no other schema, no writes to the migration record. The one piece of
 * DDL a console needs (a day partition of cluster_messages made or dropped) goes through the two
 * SECURITY DEFINER functions of migration 0009, on which it gets EXECUTE.
 */
import { sql, type Kysely } from 'kysely';
import { PARTITION_FUNCTIONS } from './schema';

/** A PostgreSQL role name as Podscope accepts it: an unquoted identifier. */
const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function checkRoleName(role: string): string {
  if (!ROLE_NAME.test(role))
    throw new Error(
      `role "${role}": a console role must be a lower-case PostgreSQL identifier (letters, digits, _; at most 63)`,
    );
  return role;
}

export interface Grants {
  schema: string;
  /** Timeline tables: SELECT, INSERT, UPDATE, DELETE. */
  tables: string[];
  /** kysely's migration record: SELECT only (a console checks the schema is current). */
  readOnly: string[];
  sequences: string[];
  functions: string[];
}

/**
 * Grants `role` what a console needs on the current schema, as its owner (after migrating).
 * Idempotent; run again after every migration (a new table gets its grant then). Partitions are
 * reached through cluster_messages, whose privileges PostgreSQL checks, so they get none.
 */
export async function grantConsoleRole(db: Kysely<unknown>, role: string): Promise<Grants> {
  const r = sql.id(checkRoleName(role));
  const { rows: schemaRows } = await sql<{
    schema: string;
  }>`SELECT current_schema() AS schema`.execute(db);
  const schema = schemaRows[0]?.schema;
  if (!schema) throw new Error('no current schema to grant on (search_path is empty)');
  const { rows: exists } = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = ${role}`.execute(db);
  if (!exists[0]?.n)
    throw new Error(
      `role "${role}" does not exist: create it first (CREATE ROLE ${role} LOGIN PASSWORD '…')`,
    );
  const { rows: tableRows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY c.relname`.execute(db);
  const { rows: seqRows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schema} AND c.relkind = 'S' ORDER BY c.relname`.execute(db);
  const isMigrationRecord = (t: string) => t.startsWith('kysely_migration');
  const grants: Grants = {
    schema,
    tables: tableRows.map((t) => t.name).filter((t) => !isMigrationRecord(t)),
    readOnly: tableRows.map((t) => t.name).filter(isMigrationRecord),
    sequences: seqRows.map((s) => s.name),
    functions: [...PARTITION_FUNCTIONS],
  };
  const s = sql.id(schema);
  await sql`GRANT USAGE ON SCHEMA ${s} TO ${r}`.execute(db);
  // PostgreSQL 15 no longer lets every role create in public; older servers do: take it back.
  await sql`REVOKE CREATE ON SCHEMA ${s} FROM PUBLIC`.execute(db);
  for (const t of grants.tables)
    await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE ${sql.id(schema, t)} TO ${r}`.execute(
      db,
    );
  for (const t of grants.readOnly) {
    await sql`REVOKE ALL ON TABLE ${sql.id(schema, t)} FROM ${r}`.execute(db);
    await sql`GRANT SELECT ON TABLE ${sql.id(schema, t)} TO ${r}`.execute(db);
  }
  for (const q of grants.sequences)
    await sql`GRANT USAGE, SELECT ON SEQUENCE ${sql.id(schema, q)} TO ${r}`.execute(db);
  for (const f of grants.functions)
    await sql`GRANT EXECUTE ON FUNCTION ${sql.raw(`${quoteIdent(schema)}.${f}`)} TO ${r}`.execute(
      db,
    );
  return grants;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
