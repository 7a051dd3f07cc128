-- More ways to reach a host (docs/api.md, "Notification settings"): a Slack and a Teams incoming webhook, SMS through
-- a Twilio-compatible API (the auth token sealed like the other secrets), and how long before an expected guest the
-- host is reminded.
ALTER TABLE notification_settings ADD COLUMN slackWebhookUrl TEXT NOT NULL DEFAULT '';
ALTER TABLE notification_settings ADD COLUMN teamsWebhookUrl TEXT NOT NULL DEFAULT '';
ALTER TABLE notification_settings ADD COLUMN twilioAccountSid TEXT NOT NULL DEFAULT '';
ALTER TABLE notification_settings ADD COLUMN twilioAuthToken TEXT NOT NULL DEFAULT '';
ALTER TABLE notification_settings ADD COLUMN twilioFrom TEXT NOT NULL DEFAULT '';
ALTER TABLE notification_settings ADD COLUMN twilioBaseUrl TEXT NOT NULL DEFAULT 'https://api.twilio.com';
ALTER TABLE notification_settings ADD COLUMN reminderMinutesBefore INTEGER NOT NULL DEFAULT 15;
