-- The audit log read newest first, narrowed to an action or to who acted (docs/reliability.md, "Audit log"):
-- SQLite's indexes on audit_log already end with the row's id (its INTEGER PRIMARY KEY is the rowid), so they are
-- read backwards as they are. PostgreSQL's migration of the same number adds the id to its indexes.
SELECT 1;
