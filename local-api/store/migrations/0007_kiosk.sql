-- The kiosk's own settings, one row per company (the device's company): what a walk-in is asked, the NDA a visitor
-- signs, whether the host must allow walk-ins, the idle time-out, and the front-desk PIN's hash (scrypt, sealed
-- with the device key). A company without a row uses the defaults the service answers.
CREATE TABLE kiosk_settings (
  companyId TEXT PRIMARY KEY REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  visitorFields TEXT NOT NULL,
  pictureMode TEXT NOT NULL CHECK (pictureMode IN ('off', 'optional', 'required')),
  ndaText TEXT NOT NULL,
  requireAuthorization INTEGER NOT NULL,
  idleSeconds INTEGER NOT NULL,
  badgePrinting INTEGER NOT NULL,
  pinHash TEXT
) STRICT;
