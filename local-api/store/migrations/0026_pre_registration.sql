-- An invitee's pre-registration (docs/kiosk.md, "Pre-registration"): when the guest registered, their answers to
-- the questionnaire (their field answers join `customFields`), the picture and the signed agreement as Base64 text
-- (JPEG or PNG, PDF) and how it was signed. Text, not stored files: the invitee's row carries them to the company's
-- kiosks through the hub's feed (docs/sync.md), where the check-in makes them the visit's own files.
ALTER TABLE invitees ADD COLUMN registeredAt INTEGER;
ALTER TABLE invitees ADD COLUMN questionnaireFields TEXT NOT NULL DEFAULT '[]';
ALTER TABLE invitees ADD COLUMN registrationPicture TEXT;
ALTER TABLE invitees ADD COLUMN registrationNda TEXT;
ALTER TABLE invitees ADD COLUMN ndaSignature TEXT;
