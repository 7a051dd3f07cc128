-- Lists without a query come in the order of creation, and lists with one break ties in it (docs/api.md, "Lists").
-- SQLite numbers each row as it is inserted (its rowid), and the store orders by that number; PostgreSQL has no
-- such number, so the tables that are listed get one under the same name. Like SQLite's, it is not one of the
-- row's columns: `SELECT *` leaves it out (store/postgres.ts), so it never reaches an answer or the change feed.
ALTER TABLE hosts ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE invitees ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE visits ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE meetings ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE blocklist ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE notifications ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE custom_fields ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE visitors ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE webhooks ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE visitor_types ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;

-- A page of a company's live rows in creation order is read from these, as SQLite reads its rowid order.
CREATE INDEX hosts_creation ON hosts (companyId, rowid) WHERE deletedAt IS NULL;
CREATE INDEX invitees_creation ON invitees (companyId, rowid) WHERE deletedAt IS NULL;
CREATE INDEX visits_creation ON visits (companyId, rowid) WHERE deletedAt IS NULL;
CREATE INDEX meetings_creation ON meetings (companyId, rowid) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_creation ON blocklist (companyId, rowid) WHERE deletedAt IS NULL;
CREATE INDEX notifications_creation ON notifications (companyId, rowid) WHERE deletedAt IS NULL;
CREATE INDEX visitors_creation ON visitors (companyId, rowid) WHERE deletedAt IS NULL;
CREATE INDEX webhooks_creation ON webhooks (companyId, rowid) WHERE deletedAt IS NULL;

-- The audit log is append-only (migration 0014's triggers refuse an update or a delete of an entry); PostgreSQL can
-- also empty a table at once, which row triggers do not see.
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT
  EXECUTE FUNCTION audit_log_append_only();
