-- Analytics (docs/console.md, "Analytics"): a span's visits counted from one index alone, and a visit's earlier
-- visits by the same visitor found by one index search (first-time against returning). The (companyId, visitorId)
-- index is the new one's prefix, so it goes. PostgreSQL's migration of the same number makes the same.
CREATE INDEX visits_analytics ON visits (companyId, checkinAt, checkoutAt, visitorId, hostId, visitorTypeId,
  checkinByIpadId) WHERE deletedAt IS NULL;
DROP INDEX visits_visitor;
CREATE INDEX visits_visitor ON visits (companyId, visitorId, checkinAt) WHERE deletedAt IS NULL;
