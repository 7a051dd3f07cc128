-- How a visit's NDA was signed: DRAWN (a signature drawn on the screen) or TYPED (the signer typed their name, the
-- kiosk's way of signing without a pointer); null for a visit without one, or from before this was recorded.
ALTER TABLE visits ADD COLUMN ndaSignature TEXT;
