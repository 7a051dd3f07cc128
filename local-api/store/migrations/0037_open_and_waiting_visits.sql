-- The console's first reads at scale (docs/benchmarks.md, "Console pages' first answers"). PostgreSQL's migration of
-- the same number makes the same.
--
-- The open visits (checked in, not out): the roster and the front desk's counts (`GET /v1/roster`, `GET /v1/today`)
-- read them newest first. The index holds those visits alone, so its size is the people inside, not the company's
-- history; without it SQLite walked the (companyId, checkinAt) index over every visit to skip a sort.
CREATE INDEX visits_open ON visits (companyId, checkinAt)
  WHERE deletedAt IS NULL AND isInsideCompany = 1 AND checkoutAt IS NULL;

-- Visits by their host's decision (`authorizationStatus`: the approvals' list, `queryKey=authorizationStatus`), in
-- the list's order (SQLite appends the rowid itself). Visits no one had to decide (null) are left out: a comparison
-- on the column never matches them.
CREATE INDEX visits_authorization ON visits (companyId, authorizationStatus)
  WHERE deletedAt IS NULL AND authorizationStatus IS NOT NULL;
