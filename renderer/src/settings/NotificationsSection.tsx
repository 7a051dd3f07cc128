import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Refusal } from '../problems.ts';
import { dateAndTime } from '../time.ts';
import { draftTextFields, Section, Select, TextInput, useAction, useSecrets } from './kit.tsx';
import type { SettingsProps } from './props.ts';

/** GET /v1/integration/notifications, as far as the editor shows it; secrets come back only as "********" or "". */
interface ChannelSettings {
  smtpHost: string;
  smtpPort: number;
  smtpSecurity: 'tls' | 'starttls' | 'none';
  smtpUsername: string;
  smtpPassword: string;
  emailFrom: string;
  webhookUrl: string;
  webhookSecret: string;
  slackWebhookUrl: string;
  teamsWebhookUrl: string;
  twilioAccountSid: string;
  twilioAuthToken: string;
  twilioFrom: string;
  twilioBaseUrl: string;
  reminderMinutesBefore: number;
  escalateAfterMinutes: number;
  receptionEmail: string;
  queue: { pending: number; failed: number; done: number; lastError: string | null };
}

interface Delivery {
  id: string;
  updatedAt: string;
  channel: Channel;
  hostName: string | null;
  subject: string;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  lastError: string | null;
}

type Channel = 'email' | 'webhook' | 'slack' | 'teams' | 'sms';
type ChannelSecret = 'smtpPassword' | 'webhookSecret' | 'twilioAuthToken';
const channelSecrets: readonly ChannelSecret[] = ['smtpPassword', 'webhookSecret', 'twilioAuthToken'];

/** The message each channel's test answers when it was taken. */
const testSent = {
  email: 'notify.testSentEmail',
  webhook: 'notify.testSentWebhook',
  slack: 'notify.testSentSlack',
  teams: 'notify.testSentTeams',
  sms: 'notify.testSentSms',
} as const;

const blank = {
  smtpHost: '',
  smtpPort: '587',
  smtpSecurity: 'starttls' as ChannelSettings['smtpSecurity'],
  smtpUsername: '',
  emailFrom: '',
  webhookUrl: '',
  slackWebhookUrl: '',
  teamsWebhookUrl: '',
  twilioAccountSid: '',
  twilioFrom: '',
  twilioBaseUrl: 'https://api.twilio.com',
  reminderMinutesBefore: '15',
  escalateAfterMinutes: '0',
  receptionEmail: '',
};

/**
 * How hosts are told their visitor is here and reminded of an expected guest: e-mail (SMTP), the webhook, Slack,
 * Teams and SMS (a Twilio-compatible API), who backs up a host who does not answer, a test message through each,
 * and the latest deliveries with their state.
 * The password, the webhook secret and the SMS token are write-only: the page never holds them; a field left empty
 * keeps the stored one, and "Remove" clears it.
 */
export function NotificationsSection({ api, data, lang }: SettingsProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(blank);
  const [queue, setQueue] = useState<ChannelSettings['queue']>();
  const [deliveries, setDeliveries] = useState<Delivery[]>();
  const [testTo, setTestTo] = useState('');
  const [testPhone, setTestPhone] = useState('');
  const save = useAction();
  const test = useAction();
  const secrets = useSecrets<ChannelSecret>(channelSecrets, (key) => submit(key));
  const storedSecrets = secrets.setStored;

  const take = useCallback(
    (settings: ChannelSettings | undefined) => {
      if (!settings) return;
      setDraft({
        smtpHost: settings.smtpHost,
        smtpPort: String(settings.smtpPort),
        smtpSecurity: settings.smtpSecurity,
        smtpUsername: settings.smtpUsername,
        emailFrom: settings.emailFrom,
        webhookUrl: settings.webhookUrl,
        slackWebhookUrl: settings.slackWebhookUrl,
        teamsWebhookUrl: settings.teamsWebhookUrl,
        twilioAccountSid: settings.twilioAccountSid,
        twilioFrom: settings.twilioFrom,
        twilioBaseUrl: settings.twilioBaseUrl,
        reminderMinutesBefore: String(settings.reminderMinutesBefore),
        escalateAfterMinutes: String(settings.escalateAfterMinutes),
        receptionEmail: settings.receptionEmail,
      });
      storedSecrets({
        smtpPassword: settings.smtpPassword !== '',
        webhookSecret: settings.webhookSecret !== '',
        twilioAuthToken: settings.twilioAuthToken !== '',
      });
      setQueue(settings.queue);
    },
    [storedSecrets],
  );
  const refresh = useCallback(() => {
    api.optional<ChannelSettings>('/v1/integration/notifications').then(
      (settings) => settings && setQueue(settings.queue),
      () => undefined,
    );
    api.get<{ deliveries: Delivery[] }>('/v1/integration/notifications/deliveries?limit=10').then(
      (answer) => setDeliveries(answer.deliveries),
      () => undefined,
    );
  }, [api]);
  useEffect(() => {
    api.optional<ChannelSettings>('/v1/integration/notifications').then(take, () => undefined);
    refresh();
  }, [api, take, refresh]);

  const submit = (clear?: ChannelSecret) =>
    save.run(async () => {
      const saved = await api.send<ChannelSettings>('POST', '/v1/integration/notifications', {
        ...draft,
        smtpPort: Number(draft.smtpPort),
        reminderMinutesBefore: Number(draft.reminderMinutesBefore),
        escalateAfterMinutes: Number(draft.escalateAfterMinutes),
        ...secrets.toSend(clear),
      });
      secrets.saved(clear);
      take(saved);
      return t('common.saved');
    });
  const recipients: Partial<Record<Channel, string>> = { email: testTo.trim(), sms: testPhone.trim() };
  const sendTest = (channel: Channel) =>
    test.run(async () => {
      const to = recipients[channel];
      const result = await api.send<{ delivered: boolean; error: string | null }>(
        'POST',
        '/v1/integration/notifications/test',
        to === undefined ? { channel } : { channel, to },
      );
      if (!result.delivered) throw new Refusal(t('notify.testFailed', { reason: result.error ?? '' }));
      return t(testSent[channel], { to: to ?? '' });
    });

  const text = draftTextFields(draft, setDraft);
  const channelOn: Record<Channel, boolean> = {
    email: draft.smtpHost.trim() !== '' && testTo.trim() !== '',
    webhook: draft.webhookUrl.trim() !== '',
    slack: draft.slackWebhookUrl.trim() !== '',
    teams: draft.teamsWebhookUrl.trim() !== '',
    sms: draft.twilioAccountSid.trim() !== '' && draft.twilioFrom.trim() !== '' && testPhone.trim() !== '',
  };
  const testLabels: Record<Channel, string> = {
    email: t('notify.testEmail'),
    webhook: t('notify.testWebhook'),
    slack: t('notify.testSlack'),
    teams: t('notify.testTeams'),
    sms: t('notify.testSms'),
  };
  return (
    <>
      <Section
        title={t('notify.title')}
        onSave={() => submit()}
        saveLabel={t('common.save')}
        busy={save.busy}
        notice={save.notice}
      >
        <p className="hint">{t('notify.intro')}</p>
        <fieldset className="field field-group">
          <legend>{t('notify.email')}</legend>
          {text('smtpHost', t('notify.smtpHost'))}
          {text('smtpPort', t('notify.smtpPort'), { type: 'number' })}
          <Select
            label={t('notify.smtpSecurity')}
            value={draft.smtpSecurity}
            options={[
              { value: 'starttls', label: t('notify.starttls') },
              { value: 'tls', label: t('notify.tls') },
              { value: 'none', label: t('notify.none') },
            ]}
            onChange={(smtpSecurity) => setDraft({ ...draft, smtpSecurity })}
          />
          {text('smtpUsername', t('notify.smtpUsername'))}
          {secrets.field('smtpPassword', t('notify.smtpPassword'))}
          {text('emailFrom', t('notify.emailFrom'), { type: 'email' })}
        </fieldset>
        <fieldset className="field field-group">
          <legend>{t('notify.webhook')}</legend>
          {text('webhookUrl', t('notify.webhookUrl'), { type: 'url' })}
          {secrets.field('webhookSecret', t('notify.webhookSecret'))}
        </fieldset>
        <fieldset className="field field-group">
          <legend>{t('notify.chat')}</legend>
          <p className="hint">{t('notify.chatHint')}</p>
          {text('slackWebhookUrl', t('notify.slackWebhookUrl'), { type: 'url' })}
          {text('teamsWebhookUrl', t('notify.teamsWebhookUrl'), { type: 'url' })}
        </fieldset>
        <fieldset className="field field-group">
          <legend>{t('notify.sms')}</legend>
          <p className="hint">{t('notify.smsHint')}</p>
          {text('twilioAccountSid', t('notify.twilioAccountSid'))}
          {secrets.field('twilioAuthToken', t('notify.twilioAuthToken'))}
          {text('twilioFrom', t('notify.twilioFrom'))}
          {text('twilioBaseUrl', t('notify.twilioBaseUrl'), { type: 'url', required: true })}
        </fieldset>
        <fieldset className="field field-group">
          <legend>{t('notify.reminder')}</legend>
          {text('reminderMinutesBefore', t('notify.reminderMinutesBefore'), { type: 'number', required: true })}
          <p className="hint">{t('notify.reminderHint')}</p>
        </fieldset>
        <fieldset className="field field-group">
          <legend>{t('notify.escalation')}</legend>
          {text('escalateAfterMinutes', t('notify.escalateAfterMinutes'), { type: 'number', required: true })}
          {text('receptionEmail', t('notify.receptionEmail'), { type: 'email' })}
          <p className="hint">{t('notify.escalationHint')}</p>
        </fieldset>
      </Section>
      <section className="fd-section" aria-labelledby="notify-test-title">
        <h2 id="notify-test-title">{t('notify.testTitle')}</h2>
        <TextInput label={t('notify.testTo')} type="email" value={testTo} onChange={setTestTo} />
        <TextInput label={t('notify.testPhone')} type="tel" value={testPhone} onChange={setTestPhone} />
        <div className="card-actions">
          {(Object.keys(testLabels) as Channel[]).map((channel) => (
            <button
              key={channel}
              type="button"
              className="btn btn-secondary"
              disabled={test.busy || !channelOn[channel]}
              onClick={() => sendTest(channel)}
            >
              {testLabels[channel]}
            </button>
          ))}
        </div>
        {test.notice}
      </section>
      <section className="fd-section" aria-labelledby="notify-status-title">
        <h2 id="notify-status-title">{t('notify.statusTitle')}</h2>
        <button type="button" className="btn btn-small btn-secondary" onClick={refresh}>
          {t('statusTab.refresh')}
        </button>
        {queue && (
          <dl className="facts">
            <dt>{t('statusTab.pending')}</dt>
            <dd>{queue.pending}</dd>
            <dt>{t('statusTab.failed')}</dt>
            <dd>{queue.failed}</dd>
            <dt>{t('statusTab.done')}</dt>
            <dd>{queue.done}</dd>
            {queue.lastError && (
              <>
                <dt>{t('statusTab.lastError')}</dt>
                <dd className="wrap">{queue.lastError}</dd>
              </>
            )}
          </dl>
        )}
        {deliveries?.length === 0 && <p>{t('notify.noDeliveries')}</p>}
        {deliveries && deliveries.length > 0 && (
          <table className="table console-table">
            <thead>
              <tr>
                <th scope="col">{t('notify.when')}</th>
                <th scope="col">{t('roster.host')}</th>
                <th scope="col">{t('notify.channel')}</th>
                <th scope="col">{t('notify.subject')}</th>
                <th scope="col">{t('expected.state')}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td data-label={t('notify.when')}>{dateAndTime(lang, data.timeZone, delivery.updatedAt)}</td>
                  <td data-label={t('roster.host')}>
                    <span className="wrap">{delivery.hostName}</span>
                  </td>
                  <td data-label={t('notify.channel')}>{t(`notify.${delivery.channel}`)}</td>
                  <td data-label={t('notify.subject')}>
                    <span className="wrap">{delivery.subject}</span>
                  </td>
                  <td data-label={t('expected.state')}>
                    <span className="wrap">
                      {t(`notify.state.${delivery.status}`, { count: delivery.attempts })}
                      {delivery.lastError && delivery.status !== 'done' ? ` — ${delivery.lastError}` : ''}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
