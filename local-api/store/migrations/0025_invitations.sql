-- Invitation e-mails (docs/api.md, "Invitation e-mails"): one row per invitee that was sent one, with the sequence
-- of its calendar event (RFC 5545 SEQUENCE), raised by each update or cancellation so calendars apply them in order.
CREATE TABLE invitations (
  companyId TEXT NOT NULL,
  inviteeId TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  PRIMARY KEY (companyId, inviteeId)
) STRICT;
