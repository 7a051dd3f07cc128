-- The bytes of stored files (pictures, signed NDAs, logos) on PostgreSQL. A hub's processes share the database and
-- no folder, so the bytes live beside the file's row, written, read and erased in the same transactions as the row
-- that names the file (local-api/files/bytes.ts). SQLite keeps them as files in the data folder: this migration has
-- no SQLite counterpart.
CREATE TABLE stored_files (
  id TEXT PRIMARY KEY REFERENCES files (id) ON DELETE CASCADE DEFERRABLE,
  companyId TEXT NOT NULL,
  bytes BYTEA NOT NULL
);
-- JPEG, PNG and PDF are compressed already: kept out of line without trying to compress them again.
ALTER TABLE stored_files ALTER COLUMN bytes SET STORAGE EXTERNAL;
