-- The console's first reads at scale: the open visits (the roster and the front desk's counts, newest first) and the
-- visits by their host's decision (the approvals' list, in the list's order: rowid, migration 0017). As SQLite's
-- migration of the same number (migrations/).
CREATE INDEX visits_open ON visits (companyId, checkinAt, rowid)
  WHERE deletedAt IS NULL AND isInsideCompany = 1 AND checkoutAt IS NULL;
CREATE INDEX visits_authorization ON visits (companyId, authorizationStatus, rowid)
  WHERE deletedAt IS NULL AND authorizationStatus IS NOT NULL;
