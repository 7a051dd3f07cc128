import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import {
  BackupError,
  backupDatabase,
  backupFileName,
  backupsDir,
  databaseFile,
  restoreDatabase,
  verifyDatabaseFile,
} from '../../local-api/backup/backup.ts';
import { deviceKeyFile } from '../../local-api/secrets/box.ts';
import { privateDataFolder, privateFolder } from '../../local-api/store/private-files.ts';
import { CommandFailure, command } from './command.ts';
import { database, databaseOption, dataOption } from './inputs.ts';

/**
 * Why `backup` cannot copy a data folder, or undefined when it holds a SQLite database. A hub on PostgreSQL (its
 * `--database`, or a folder with the device key and no SQLite file) is pointed at PostgreSQL's own backups.
 */
function backupRefusal(dataText: string, dataDir: string, onPostgres: boolean): string | undefined {
  const postgres = 'back up PostgreSQL with its own tools (pg_dump; docs/deployment.md)';
  if (onPostgres)
    return `backup copies a data folder's SQLite database, and this service's database is PostgreSQL: ${postgres}`;
  if (existsSync(databaseFile(dataDir))) return undefined;
  if (existsSync(deviceKeyFile(dataDir))) {
    return `--data ${dataText} holds no SQLite database, so its service runs on PostgreSQL (a hub): ${postgres}`;
  }
  return `--data ${dataText} holds no Portaria database: give the folder the service uses`;
}

export const backup = command({
  name: 'backup',
  summary: "An online backup of a data folder's database and its digest (<file>.sha256), also while the service runs.",
  details:
    "A hub on PostgreSQL keeps its data in PostgreSQL, not in the folder: back it up with PostgreSQL's own tools\n" +
    '(pg_dump, or pg_basebackup with WAL archiving; docs/deployment.md).',
  options: {
    data: dataOption,
    database: databaseOption,
    out: { type: 'string', value: '<file>', help: 'where to write it (default: a dated file in <dir>/backups/)' },
  },
  async run(values) {
    const dataDir = resolve(values.data);
    const refused = backupRefusal(values.data, dataDir, database(values.database) !== undefined);
    if (refused) throw new CommandFailure(refused);
    privateDataFolder(dataDir);
    if (values.out === undefined) privateFolder(backupsDir(dataDir));
    const out = resolve(values.out ?? join(backupsDir(dataDir), backupFileName(Date.now())));
    const db = new Database(databaseFile(dataDir), { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    try {
      const written = await backupDatabase(db, out);
      const schemaVersion = verifyDatabaseFile(written.file);
      process.stdout.write(`${JSON.stringify({ ...written, schemaVersion })}\n`);
    } finally {
      db.close();
    }
  },
});

export const restore = command({
  name: 'restore',
  summary: 'Checks a backup, keeps a copy of the current database, then restores the backup.',
  options: {
    data: { type: 'string', value: '<dir>', help: 'the data folder to restore into', required: true },
    from: { type: 'string', value: '<file>', help: 'the backup', required: true },
    force: { type: 'boolean', help: 'restore into a running service (same schema version only)' },
    'without-digest': { type: 'boolean', help: 'restore a backup that has no <file>.sha256 beside it' },
  },
  details: 'A restore is refused while a service runs on the folder, unless --force is given.',
  async run(values) {
    const from = resolve(values.from);
    if (!existsSync(from))
      throw new CommandFailure(`restore refused: --from ${values.from} does not exist: give a backup file`);
    try {
      const restored = await restoreDatabase(resolve(values.data), from, {
        force: values.force,
        withoutDigest: values['without-digest'],
      });
      process.stdout.write(`${JSON.stringify({ restored: from, ...restored })}\n`);
    } catch (error) {
      if (error instanceof BackupError) throw new CommandFailure(`restore refused: ${error.message}`);
      throw error;
    }
  },
});
