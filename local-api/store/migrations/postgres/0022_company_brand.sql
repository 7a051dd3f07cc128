-- The company's brand on the kiosk's welcome screen (docs/api.md, "Company"): a colour (white text on it keeps AA
-- contrast, checked by the service), an uploaded welcome picture (a stored file, like the logo), and a welcome
-- message per language (JSON, `{"pt-BR": "..."}`). Without them the kiosk keeps its own look.
ALTER TABLE companies ADD COLUMN brandColor TEXT;
ALTER TABLE companies ADD COLUMN welcomeImageUrl TEXT;
ALTER TABLE companies ADD COLUMN localizedWelcomeMessage TEXT NOT NULL DEFAULT '{}';
