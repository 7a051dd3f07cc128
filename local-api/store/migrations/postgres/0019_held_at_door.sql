-- A visit held at the door for the front desk, as SQLite's migration of the same number (migrations/).
ALTER TABLE visits ADD COLUMN heldAtDoor BIGINT NOT NULL DEFAULT 0;
