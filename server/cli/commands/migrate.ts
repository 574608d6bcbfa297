/**
 * `podscope migrate [--database-url URL] [--grant ROLE]`: brings the PostgreSQL timeline schema
 * to this build's newest migration, as the schema's owner, and grants the consoles' role what it
 * needs and nothing more (server/timeline-db/roles.ts). Consoles then run with
 * PODSCOPE_DATABASE_MIGRATE=off. Run as a Job or init step before consoles of a new version
 * start (deploy/kubernetes does); running it twice changes nothing.
 */
import { LATEST_MIGRATION } from '@/server/timeline-db/schema';
import { isPostgresUrl, openDatabase, redactUrl } from '@/server/timeline-db/open';
import { checkRoleName, grantConsoleRole } from '@/server/timeline-db/roles';
import type { Kysely } from 'kysely';
import type { Command } from '../command';
import { UsageError } from '../command';
import { parse } from '../lib/args';

const usage = `Usage: podscope migrate [--database-url URL] [--grant ROLE]

Migrates the cluster timeline's PostgreSQL schema to this build's newest version (as the
schema's owner), then lets ROLE — the role consoles connect as — read and write the timeline's
rows: no DDL, no other schema. Consoles then run with PODSCOPE_DATABASE_MIGRATE=off.

  --database-url URL   the owner's postgres:// URL (default: $PODSCOPE_DATABASE_OWNER_URL,
                       then $PODSCOPE_DATABASE_URL)
  --grant ROLE         the consoles' role (default: $PODSCOPE_DATABASE_CONSOLE_ROLE; none: no grants)`;

export const migrateCommand: Command = {
  name: 'migrate',
  summary: "migrate the PostgreSQL timeline as its owner; grant the consoles' role",
  usage,
  async run(args) {
    const { values, positionals } = parse(args, {
      'database-url': { type: 'string' },
      grant: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const url =
      values['database-url'] ??
      process.env.PODSCOPE_DATABASE_OWNER_URL ??
      process.env.PODSCOPE_DATABASE_URL;
    if (!url) throw new UsageError('give --database-url URL (or PODSCOPE_DATABASE_OWNER_URL)');
    if (!isPostgresUrl(url))
      throw new UsageError(
        `--database-url ${redactUrl(url)}: only postgres:// URLs (an SQLite timeline migrates itself when opened)`,
      );
    const role = values.grant ?? process.env.PODSCOPE_DATABASE_CONSOLE_ROLE;
    if (role) checkRoleName(role);
    const { db, where } = await openDatabase({ url, migrate: 'on', poolSize: 1 });
    try {
      process.stdout.write(`migrated ${where} to ${LATEST_MIGRATION}\n`);
      if (role) {
        const g = await grantConsoleRole(db as unknown as Kysely<unknown>, role);
        process.stdout.write(
          `granted ${role} on schema ${g.schema}: rows of ${g.tables.join(', ')}; read ${g.readOnly.join(', ')}; partitions through ${g.functions.join(', ')}\n`,
        );
      }
      return 0;
    } finally {
      await db.destroy();
    }
  },
};
