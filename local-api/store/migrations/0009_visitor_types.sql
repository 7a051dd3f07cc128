-- Visitor types (guest, interview, contractor, delivery, and the company's own): what each kind of visitor is
-- asked at the kiosk (visitor fields, custom fields, agreement, picture), whether the host must allow the visit,
-- and the label on the badge. NULL in a rule column means "as the kiosk's settings say". Visits and invitees name
-- their type; a company without types checks every visitor in the same way, as before.
CREATE TABLE visitor_types (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  kind TEXT NOT NULL CHECK (kind IN ('guest', 'interview', 'contractor', 'delivery', 'custom')),
  name TEXT NOT NULL,
  localizedName TEXT NOT NULL DEFAULT '{}',
  badgeLabel TEXT NOT NULL,
  localizedBadgeLabel TEXT NOT NULL DEFAULT '{}',
  visitorFields TEXT NOT NULL DEFAULT '{}',
  customFieldIds TEXT,
  ndaText TEXT,
  localizedNdaText TEXT NOT NULL DEFAULT '{}',
  pictureMode TEXT CHECK (pictureMode IN ('off', 'optional', 'required')),
  requireAuthorization INTEGER,
  isActive INTEGER NOT NULL DEFAULT 1,
  sort INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX visitor_types_list ON visitor_types (companyId, sort) WHERE deletedAt IS NULL;

ALTER TABLE visits ADD COLUMN visitorTypeId TEXT;
ALTER TABLE invitees ADD COLUMN visitorTypeId TEXT;
