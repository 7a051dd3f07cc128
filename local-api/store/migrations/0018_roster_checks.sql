-- The evacuation roll call (docs/api.md, "Front desk"): which people on the roster a marshal has accounted for,
-- kept by the service so that every marshal's device shows the same ticks. One roll call per company at a time:
-- starting a new one (a new evacuation) clears the ticks of the last.
CREATE TABLE roster_roll_calls (
  companyId TEXT PRIMARY KEY REFERENCES companies (id),
  startedAt INTEGER NOT NULL,
  startedBy TEXT NOT NULL
) STRICT;
CREATE TABLE roster_checks (
  companyId TEXT NOT NULL REFERENCES companies (id),
  visitId TEXT NOT NULL,
  checkedAt INTEGER NOT NULL,
  checkedBy TEXT NOT NULL,
  PRIMARY KEY (companyId, visitId)
) STRICT;
