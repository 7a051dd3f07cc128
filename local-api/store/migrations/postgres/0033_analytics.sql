-- Analytics (docs/console.md, "Analytics"; local-api/analytics/hours.ts): the visits counted by hour of the
-- company's zone, by visitor type and by kiosk, and the span they cover; the indexes for returning visitors, for
-- the hosts' ranking and for the no-shows. As SQLite's migration of the same number (migrations/).
CREATE TABLE visit_hours (
  companyId TEXT NOT NULL,
  localHour BIGINT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('type', 'kiosk')),
  groupKey TEXT NOT NULL,
  visits BIGINT NOT NULL,
  returningVisits BIGINT NOT NULL,
  stays BIGINT NOT NULL,
  stayMs BIGINT NOT NULL,
  PRIMARY KEY (companyId, localHour, kind, groupKey)
);
CREATE TABLE visit_hours_built (
  companyId TEXT PRIMARY KEY,
  zone TEXT NOT NULL,
  builtFrom BIGINT NOT NULL,
  builtTo BIGINT NOT NULL
);
DROP INDEX visits_visitor;
CREATE INDEX visits_visitor ON visits (companyId, visitorId, checkinAt) WHERE deletedAt IS NULL;
DROP INDEX visits_checkin;
CREATE INDEX visits_checkin ON visits (companyId, checkinAt, hostId) WHERE deletedAt IS NULL;
DROP INDEX invitees_expected;
CREATE INDEX invitees_expected ON invitees (companyId, expectedAt, status) WHERE deletedAt IS NULL;
