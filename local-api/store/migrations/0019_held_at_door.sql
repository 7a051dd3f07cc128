-- A visit held at the door for the front desk: the visitor's name is on the blocklist and no identifier they gave
-- tells them apart from the entry (docs/api.md, "At the door"). PostgreSQL's migration of the same number adds the
-- same column (migrations/postgres/).
ALTER TABLE visits ADD COLUMN heldAtDoor INTEGER NOT NULL DEFAULT 0;
