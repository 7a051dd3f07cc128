-- Core schema: companies and their API keys, hosts, invitees, visits, the access-control configuration.
-- Column names are the interface's field names, so a row maps onto its object without a translation table.
-- Times are Unix milliseconds; booleans 0/1; arrays and free-form objects JSON text.
-- Every list path has a partial index over live rows (deletedAt IS NULL) led by companyId.

CREATE TABLE companies (
  id TEXT PRIMARY KEY,
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  name TEXT NOT NULL,
  createdById TEXT,
  lang TEXT NOT NULL DEFAULT 'en',
  plan TEXT NOT NULL DEFAULT 'TRIAL',
  planIsActive INTEGER NOT NULL DEFAULT 1,
  trialUntil INTEGER NOT NULL,
  location TEXT,
  pictureUrl TEXT,
  address TEXT,
  city TEXT,
  complement TEXT,
  country TEXT,
  state TEXT,
  type TEXT NOT NULL DEFAULT 'INDEPENDENT',
  timezone TEXT,
  invitePrefix TEXT,
  phone TEXT,
  email TEXT,
  countryCode TEXT,
  touchlessId TEXT,
  parentCompanyId TEXT,
  mapAddressUrl TEXT,
  visibleOnKiosk INTEGER NOT NULL DEFAULT 1,
  serproClientId TEXT,
  serproClientSecret TEXT,
  serproAuthToken TEXT,
  liberadoAuthToken TEXT,
  serproAuthTokenExpiresAt INTEGER,
  whatsappMessageNameSource TEXT DEFAULT 'company',
  module TEXT NOT NULL DEFAULT 'default',
  multipleVisitFlowsEnabled INTEGER,
  disableQrcodeApp INTEGER DEFAULT 0,
  showAssociatedCHsApp INTEGER DEFAULT 0
) STRICT;

CREATE TABLE api_keys (
  keyHash BLOB PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  revokedAt INTEGER
) STRICT;
CREATE INDEX api_keys_company ON api_keys (companyId);

CREATE TABLE hosts (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  name TEXT NOT NULL COLLATE NOCASE,
  email TEXT NOT NULL COLLATE NOCASE,
  role TEXT NOT NULL DEFAULT 'HOST',
  isActive INTEGER NOT NULL DEFAULT 0,
  preCheckinNotifications INTEGER NOT NULL DEFAULT 1,
  isPhoneValid INTEGER NOT NULL DEFAULT 0,
  sendInvitationEmail INTEGER NOT NULL DEFAULT 0,
  additionalEmails TEXT NOT NULL DEFAULT '[]',
  additionalPhones TEXT NOT NULL DEFAULT '[]',
  pictureUrl TEXT,
  pictureThumbUrl TEXT,
  position TEXT COLLATE NOCASE,
  sector TEXT COLLATE NOCASE,
  cpf TEXT,
  phone TEXT,
  countryCode TEXT,
  message TEXT,
  deliveryNotification INTEGER NOT NULL DEFAULT 0,
  metadata TEXT,
  defaultMeetingLocationId TEXT,
  defaultMeetingTypeId TEXT,
  userId TEXT,
  createdById TEXT,
  zoneId TEXT,
  invenziId TEXT,
  mifareCardNumber TEXT,
  allowCredentialing INTEGER NOT NULL DEFAULT 0,
  canAuthorizeAllCredentialing INTEGER NOT NULL DEFAULT 0,
  disableMeetingCreation INTEGER NOT NULL DEFAULT 0,
  spaceManagementEnabled INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE UNIQUE INDEX hosts_email ON hosts (companyId, email) WHERE deletedAt IS NULL;
CREATE INDEX hosts_list ON hosts (companyId) WHERE deletedAt IS NULL;
-- Not partial: a visit's `hostName` query matches the host it was for even once that host is deleted.
CREATE INDEX hosts_name ON hosts (companyId, name);
CREATE INDEX hosts_role ON hosts (companyId, role) WHERE deletedAt IS NULL;
CREATE INDEX hosts_sector ON hosts (companyId, sector) WHERE deletedAt IS NULL;
CREATE INDEX hosts_position ON hosts (companyId, position) WHERE deletedAt IS NULL;
CREATE INDEX hosts_phone ON hosts (companyId, phone) WHERE deletedAt IS NULL;
CREATE INDEX hosts_cpf ON hosts (companyId, cpf) WHERE deletedAt IS NULL;
CREATE INDEX hosts_active ON hosts (companyId, isActive) WHERE deletedAt IS NULL;
CREATE INDEX hosts_created ON hosts (companyId, createdAt) WHERE deletedAt IS NULL;

CREATE TABLE invitees (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  hostId TEXT NOT NULL REFERENCES hosts (id),
  meetingId TEXT,
  expectedAt INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'confirmed',
  lang TEXT,
  name TEXT COLLATE NOCASE,
  phone TEXT,
  cpf TEXT,
  rg TEXT,
  document TEXT,
  email TEXT COLLATE NOCASE,
  address TEXT COLLATE NOCASE,
  company TEXT COLLATE NOCASE,
  position TEXT COLLATE NOCASE,
  sector TEXT COLLATE NOCASE,
  pictureUrl TEXT,
  customFields TEXT NOT NULL DEFAULT '[]',
  cardNumber INTEGER NOT NULL,
  notes TEXT,
  requiresAuthorization INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX invitees_list ON invitees (companyId) WHERE deletedAt IS NULL;
CREATE INDEX invitees_expected ON invitees (companyId, expectedAt) WHERE deletedAt IS NULL;
CREATE INDEX invitees_status ON invitees (companyId, status) WHERE deletedAt IS NULL;
CREATE INDEX invitees_host ON invitees (companyId, hostId) WHERE deletedAt IS NULL;
CREATE INDEX invitees_name ON invitees (companyId, name) WHERE deletedAt IS NULL;
CREATE INDEX invitees_email ON invitees (companyId, email) WHERE deletedAt IS NULL;
CREATE INDEX invitees_phone ON invitees (companyId, phone) WHERE deletedAt IS NULL;
CREATE INDEX invitees_cpf ON invitees (companyId, cpf) WHERE deletedAt IS NULL;
CREATE INDEX invitees_rg ON invitees (companyId, rg) WHERE deletedAt IS NULL;
CREATE INDEX invitees_document ON invitees (companyId, document) WHERE deletedAt IS NULL;
CREATE INDEX invitees_company ON invitees (companyId, company) WHERE deletedAt IS NULL;
CREATE INDEX invitees_position ON invitees (companyId, position) WHERE deletedAt IS NULL;
CREATE INDEX invitees_sector ON invitees (companyId, sector) WHERE deletedAt IS NULL;
CREATE INDEX invitees_address ON invitees (companyId, address) WHERE deletedAt IS NULL;
CREATE UNIQUE INDEX invitees_card ON invitees (companyId, cardNumber) WHERE deletedAt IS NULL;

CREATE TABLE visits (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  hostId TEXT REFERENCES hosts (id),
  inviteeId TEXT REFERENCES invitees (id),
  visitorId TEXT,
  name TEXT COLLATE NOCASE,
  email TEXT COLLATE NOCASE,
  phone TEXT,
  cpf TEXT,
  rg TEXT,
  document TEXT,
  address TEXT COLLATE NOCASE,
  company TEXT COLLATE NOCASE,
  position TEXT COLLATE NOCASE,
  sector TEXT COLLATE NOCASE,
  cardNumber TEXT,
  issuanceToken TEXT,
  expectedAt INTEGER,
  expectedOutAt INTEGER,
  checkinAt INTEGER NOT NULL,
  checkinType TEXT,
  checkoutType TEXT,
  finishCheckinAt INTEGER,
  checkoutAt INTEGER,
  isInsideCompany INTEGER NOT NULL DEFAULT 1,
  authorizedById TEXT,
  authorizedAt INTEGER,
  authorizationVia TEXT,
  authorizationLink TEXT,
  authorizationStatus TEXT,
  visitorStatus TEXT,
  statusNote TEXT,
  checkinByHostId TEXT,
  checkoutByHostId TEXT,
  checkinByIpadId TEXT,
  checkoutByIpadId TEXT,
  notes TEXT,
  customHostName TEXT,
  meetingId TEXT,
  userId TEXT,
  isCanceled INTEGER NOT NULL DEFAULT 0,
  firstAccessAt INTEGER,
  timeToDelayVisit INTEGER,
  customFields TEXT NOT NULL DEFAULT '[]',
  questionnaireFields TEXT NOT NULL DEFAULT '[]',
  feedbacks TEXT NOT NULL DEFAULT '[]',
  pictureFile TEXT,
  ndaFile TEXT
) STRICT;
CREATE INDEX visits_list ON visits (companyId) WHERE deletedAt IS NULL;
CREATE INDEX visits_checkin ON visits (companyId, checkinAt) WHERE deletedAt IS NULL;
CREATE INDEX visits_checkout ON visits (companyId, checkoutAt) WHERE deletedAt IS NULL;
CREATE INDEX visits_inside ON visits (companyId, isInsideCompany) WHERE deletedAt IS NULL;
CREATE INDEX visits_host ON visits (companyId, hostId) WHERE deletedAt IS NULL;
CREATE INDEX visits_name ON visits (companyId, name) WHERE deletedAt IS NULL;
CREATE INDEX visits_email ON visits (companyId, email) WHERE deletedAt IS NULL;
CREATE INDEX visits_document ON visits (companyId, document) WHERE deletedAt IS NULL;
CREATE INDEX visits_cpf ON visits (companyId, cpf) WHERE deletedAt IS NULL;
CREATE INDEX visits_phone ON visits (companyId, phone) WHERE deletedAt IS NULL;
CREATE INDEX visits_invitee ON visits (companyId, inviteeId) WHERE deletedAt IS NULL;
CREATE INDEX visits_card ON visits (companyId, cardNumber) WHERE deletedAt IS NULL;

CREATE TABLE access_configs (
  companyId TEXT PRIMARY KEY REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 0,
  aesKey TEXT NOT NULL DEFAULT '',
  qrcodeDuration INTEGER NOT NULL DEFAULT 30,
  url TEXT NOT NULL DEFAULT '',
  username TEXT NOT NULL DEFAULT '',
  password TEXT NOT NULL DEFAULT '',
  totpEnabled INTEGER NOT NULL DEFAULT 0,
  staticVisitorQRCode INTEGER NOT NULL DEFAULT 0
) STRICT;
