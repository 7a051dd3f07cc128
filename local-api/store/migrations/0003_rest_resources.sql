-- The rest of the interface: meetings, blocklist entries, notifications and their delivery settings, custom-field
-- definitions, visitors as their own records, and the files (pictures, signed NDAs) that visits and invitees carry.
-- Same rules as 0001: API field names as column names, Unix milliseconds, 0/1, JSON text, partial indexes over
-- live rows led by companyId.

CREATE TABLE meetings (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  title TEXT NOT NULL COLLATE NOCASE,
  type TEXT NOT NULL DEFAULT 'MEETING',
  start INTEGER NOT NULL,
  "end" INTEGER NOT NULL,
  durationInHours INTEGER,
  isRecurring INTEGER NOT NULL DEFAULT 0,
  recurrencePattern TEXT,
  allDay INTEGER NOT NULL DEFAULT 0,
  timezone TEXT,
  message TEXT,
  location TEXT COLLATE NOCASE,
  notes TEXT,
  createdOn TEXT NOT NULL DEFAULT 'DASHBOARD',
  coHosts TEXT NOT NULL DEFAULT '[]',
  guests TEXT NOT NULL DEFAULT '[]',
  meetingTypeId TEXT,
  meetingLocationId TEXT,
  inviteId TEXT,
  createdByHostId TEXT,
  hostId TEXT NOT NULL REFERENCES hosts (id),
  lang TEXT NOT NULL DEFAULT 'en',
  metadata TEXT,
  visitFlowTypeId TEXT NOT NULL DEFAULT 'default',
  startRegistrationAt INTEGER,
  endRegistrationAt INTEGER
) STRICT;
CREATE INDEX meetings_list ON meetings (companyId) WHERE deletedAt IS NULL;
CREATE INDEX meetings_start ON meetings (companyId, start) WHERE deletedAt IS NULL;
CREATE INDEX meetings_host ON meetings (companyId, hostId) WHERE deletedAt IS NULL;
CREATE INDEX meetings_title ON meetings (companyId, title) WHERE deletedAt IS NULL;
-- The invitees a meeting made: moved, canceled and re-created with it.
CREATE INDEX invitees_meeting ON invitees (meetingId) WHERE meetingId IS NOT NULL;

-- Blocklist entries keep what was typed and, beside it, the normalized keys the door compares with
-- (cpfKey: digits; rgKey, documentKey: letters and digits in upper case; emailKey: lower case; phoneKey: digits,
-- phoneTail: its last 8 digits, so numbers with and without the country or area code meet in one index).
CREATE TABLE blocklist (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  name TEXT COLLATE NOCASE,
  reason TEXT,
  phone TEXT,
  email TEXT COLLATE NOCASE,
  document TEXT,
  cpf TEXT,
  rg TEXT,
  createdById TEXT,
  deletedById TEXT,
  cpfKey TEXT,
  rgKey TEXT,
  documentKey TEXT,
  emailKey TEXT,
  phoneKey TEXT,
  phoneTail TEXT
) STRICT;
CREATE INDEX blocklist_list ON blocklist (companyId) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_name ON blocklist (companyId, name) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_cpf ON blocklist (companyId, cpfKey) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_rg ON blocklist (companyId, rgKey) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_document ON blocklist (companyId, documentKey) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_email ON blocklist (companyId, emailKey) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_phone ON blocklist (companyId, phoneTail) WHERE deletedAt IS NULL;

CREATE TABLE notifications (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  type TEXT NOT NULL,
  message TEXT,
  -- The ids of the hosts it was sent to.
  hosts TEXT NOT NULL DEFAULT '[]'
) STRICT;
CREATE INDEX notifications_list ON notifications (companyId) WHERE deletedAt IS NULL;
CREATE INDEX notifications_type ON notifications (companyId, type) WHERE deletedAt IS NULL;
CREATE INDEX notifications_created ON notifications (companyId, createdAt) WHERE deletedAt IS NULL;

-- How a company's notifications leave the device: its SMTP server and/or a webhook. Secrets sealed.
CREATE TABLE notification_settings (
  companyId TEXT PRIMARY KEY REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  smtpHost TEXT NOT NULL DEFAULT '',
  smtpPort INTEGER NOT NULL DEFAULT 587,
  smtpSecurity TEXT NOT NULL DEFAULT 'starttls',
  smtpUsername TEXT NOT NULL DEFAULT '',
  smtpPassword TEXT NOT NULL DEFAULT '',
  emailFrom TEXT NOT NULL DEFAULT '',
  webhookUrl TEXT NOT NULL DEFAULT '',
  webhookSecret TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE TABLE custom_fields (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  name TEXT NOT NULL COLLATE NOCASE,
  type TEXT NOT NULL,
  options TEXT NOT NULL DEFAULT '[]',
  required INTEGER NOT NULL DEFAULT 0,
  localizedName TEXT NOT NULL DEFAULT '{}',
  sort INTEGER NOT NULL DEFAULT 0,
  location TEXT NOT NULL DEFAULT 'FIELD'
) STRICT;
CREATE INDEX custom_fields_list ON custom_fields (companyId, sort) WHERE deletedAt IS NULL;
CREATE INDEX custom_fields_location ON custom_fields (companyId, location, sort) WHERE deletedAt IS NULL;

-- A person who came before; e-mail, CPF and document (normalized as in the blocklist) recognize them again.
CREATE TABLE visitors (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  name TEXT COLLATE NOCASE,
  email TEXT COLLATE NOCASE,
  phone TEXT,
  cpf TEXT,
  rg TEXT,
  document TEXT,
  company TEXT COLLATE NOCASE,
  position TEXT COLLATE NOCASE,
  sector TEXT COLLATE NOCASE,
  address TEXT COLLATE NOCASE,
  lastVisitAt INTEGER,
  visitCount INTEGER NOT NULL DEFAULT 0,
  emailKey TEXT,
  cpfKey TEXT,
  documentKey TEXT
) STRICT;
CREATE INDEX visitors_list ON visitors (companyId) WHERE deletedAt IS NULL;
CREATE INDEX visitors_name ON visitors (companyId, name) WHERE deletedAt IS NULL;
CREATE INDEX visitors_last ON visitors (companyId, lastVisitAt) WHERE deletedAt IS NULL;
CREATE INDEX visitors_email ON visitors (companyId, emailKey) WHERE deletedAt IS NULL;
CREATE INDEX visitors_cpf ON visitors (companyId, cpfKey) WHERE deletedAt IS NULL;
CREATE INDEX visitors_document ON visitors (companyId, documentKey) WHERE deletedAt IS NULL;
CREATE INDEX visits_visitor ON visits (companyId, visitorId) WHERE deletedAt IS NULL;

-- Uploaded pictures and PDFs: the bytes live in <data>/files/<companyId>/<id>.<extension>; the row says whose
-- they are and what they are. visits.pictureFile / ndaFile and invitees.pictureFile hold a file's id.
CREATE TABLE files (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  deletedAt INTEGER,
  purpose TEXT NOT NULL,
  mediaType TEXT NOT NULL,
  extension TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL
) STRICT;
CREATE INDEX files_company ON files (companyId) WHERE deletedAt IS NULL;

ALTER TABLE invitees ADD COLUMN pictureFile TEXT;
