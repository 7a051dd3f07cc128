-- Company content in every language: a custom field's dropdown options per language (each list in the order of
-- `options`, which stay what an answer stores), and the kiosk's agreement text per language (`ndaText` is the
-- fallback for a language without its own).
ALTER TABLE custom_fields ADD COLUMN localizedOptions TEXT NOT NULL DEFAULT '{}';
ALTER TABLE kiosk_settings ADD COLUMN localizedNdaText TEXT NOT NULL DEFAULT '{}';
