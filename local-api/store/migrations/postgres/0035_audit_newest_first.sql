-- The audit log read newest first, narrowed to an action or to who acted (docs/reliability.md, "Audit log"): the
-- indexes end with the id, so a page is read backwards along one index and stops at its limit instead of sorting
-- every matching entry. SQLite's indexes end with the rowid already.
DROP INDEX audit_log_action;
DROP INDEX audit_log_actor;
DROP INDEX audit_log_credential;
CREATE INDEX audit_log_action ON audit_log (companyId, action, id);
CREATE INDEX audit_log_actor ON audit_log (companyId, actorHostId, id);
CREATE INDEX audit_log_credential ON audit_log (companyId, actorCredentialId, id);
