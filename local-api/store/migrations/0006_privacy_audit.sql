-- Data protection: each company's retention of visitor data, the files left to delete after an erasure, and the
-- audit log of front-desk actions. The audit log holds ids, action names, numbers and booleans, never text a
-- person typed, so it keeps nothing an erasure would have to reach.

CREATE TABLE privacy_settings (
  companyId TEXT PRIMARY KEY REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  -- Days a visit (by check-in) or an invitee (by expected time) is kept; NULL keeps them until erased.
  retentionDays INTEGER CHECK (retentionDays IS NULL OR retentionDays > 0),
  lastSweepAt INTEGER
) STRICT;

-- Pictures and signed NDAs whose rows were erased. Written in the erasing transaction, removed once the file is
-- gone: a process that dies between the commit and the unlink deletes the file at its next start.
CREATE TABLE file_deletions (
  path TEXT PRIMARY KEY,
  companyId TEXT NOT NULL,
  createdAt INTEGER NOT NULL
) STRICT;

CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  at INTEGER NOT NULL,
  -- The domain event: visit.checkout, visit.allowed, invitee.deleted, privacy.erased…
  action TEXT NOT NULL,
  objectType TEXT,
  objectId TEXT,
  -- The host the object names as having acted (checkoutByHostId, authorizedById), when it names one.
  actorHostId TEXT,
  -- The object's top-level numbers and booleans (counts, flags), as JSON.
  details TEXT NOT NULL DEFAULT '{}'
) STRICT;
CREATE INDEX audit_log_list ON audit_log (companyId, id);
CREATE INDEX audit_log_at ON audit_log (companyId, at);
CREATE INDEX audit_log_action ON audit_log (companyId, action);
CREATE INDEX audit_log_object ON audit_log (companyId, objectId);
CREATE INDEX audit_log_actor ON audit_log (companyId, actorHostId);
