-- Analytics (docs/console.md, "Analytics"; local-api/analytics/hours.ts): the company's visits counted by hour of
-- its zone, by visitor type (with the returning visits and the stays) and by kiosk, and the span they cover. A
-- visit's earlier visits by the same visitor are found by one index search (first-time against returning): the
-- (companyId, visitorId) index becomes (companyId, visitorId, checkinAt). The hosts who received the most visits
-- are counted from the (companyId, checkinAt, hostId) index alone, the invitees expected and the no-shows from the
-- (companyId, expectedAt, status) one. PostgreSQL's migration of the same number makes the same.
CREATE TABLE visit_hours (
  companyId TEXT NOT NULL,
  localHour INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('type', 'kiosk')),
  groupKey TEXT NOT NULL,
  visits INTEGER NOT NULL,
  returningVisits INTEGER NOT NULL,
  stays INTEGER NOT NULL,
  stayMs INTEGER NOT NULL,
  PRIMARY KEY (companyId, localHour, kind, groupKey)
) STRICT;
CREATE TABLE visit_hours_built (
  companyId TEXT PRIMARY KEY,
  zone TEXT NOT NULL,
  builtFrom INTEGER NOT NULL,
  builtTo INTEGER NOT NULL
) STRICT;
DROP INDEX visits_visitor;
CREATE INDEX visits_visitor ON visits (companyId, visitorId, checkinAt) WHERE deletedAt IS NULL;
DROP INDEX visits_checkin;
CREATE INDEX visits_checkin ON visits (companyId, checkinAt, hostId) WHERE deletedAt IS NULL;
DROP INDEX invitees_expected;
CREATE INDEX invitees_expected ON invitees (companyId, expectedAt, status) WHERE deletedAt IS NULL;
