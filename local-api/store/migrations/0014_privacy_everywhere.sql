-- Data protection everywhere (docs/reliability.md, "Data protection"): the credential behind each audit entry, an
-- audit log nothing can rewrite, and the erasures a hub makes, carried to its kiosks by the change feed.

-- The credential that acted (an API key, a front-desk session…) and its role; NULL for the service's own work
-- (the retention sweep) and for entries written before this migration.
ALTER TABLE audit_log ADD COLUMN actorCredentialId TEXT;
ALTER TABLE audit_log ADD COLUMN actorRole TEXT;
CREATE INDEX audit_log_credential ON audit_log (companyId, actorCredentialId);

-- Append-only: an entry, once written, is neither changed nor removed, by the service or by anyone with the file.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'the audit log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- An erasure made at the hub, by the ids of the rows it anonymised (never the identifiers it was asked with): a
-- kiosk that receives it erases its own copies of the person (visitor records, files, queued deliveries, pending
-- mutations) before the anonymised rows overwrite what it knew of them.
CREATE TABLE privacy_erasures (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  -- JSON {"invitees": [ids], "visits": [ids], "visitors": [ids], "blocklist": [ids]}
  rowIds TEXT NOT NULL
) STRICT;
CREATE INDEX privacy_erasures_company ON privacy_erasures (companyId, createdAt);
