-- The evacuation roll call: see migrations/0018_roster_checks.sql.
CREATE TABLE roster_roll_calls (
  companyId TEXT PRIMARY KEY REFERENCES companies (id) DEFERRABLE,
  startedAt BIGINT NOT NULL,
  startedBy TEXT NOT NULL
);
CREATE TABLE roster_checks (
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  visitId TEXT NOT NULL,
  checkedAt BIGINT NOT NULL,
  checkedBy TEXT NOT NULL,
  PRIMARY KEY (companyId, visitId)
);
