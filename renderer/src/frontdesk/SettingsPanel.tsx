import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Refusal } from '../problems.ts';
import { AccessSection } from '../settings/AccessSection.tsx';
import { BrandSection } from '../settings/BrandEditor.tsx';
import { CompanySection } from '../settings/CompanySection.tsx';
import { CustomFieldsSection } from '../settings/CustomFieldsEditor.tsx';
import { KioskSection } from '../settings/KioskSection.tsx';
import { Section, TextInput, useAction } from '../settings/kit.tsx';
import { NotificationsSection } from '../settings/NotificationsSection.tsx';
import { LeaveKiosk } from './LeaveKiosk.tsx';
import type { FrontDeskProps } from './props.ts';

/** The device's settings, one section per concern; a section whose endpoint the service lacks says so. */
export function SettingsPanel(props: FrontDeskProps) {
  return (
    <div className="settings">
      {props.data.company && <CompanySection {...props} company={props.data.company} />}
      {props.data.company && <BrandSection {...props} company={props.data.company} />}
      <KioskSection {...props} />
      <CustomFieldsSection {...props} />
      <NotificationsSection {...props} />
      <HubSection />
      <AccessSection {...props} />
      <PinSection {...props} />
      <LeaveKiosk />
    </div>
  );
}

/**
 * Following a hub concerns the whole device, so it is the device owner's (docs/sync.md): no credential the page
 * holds may change it. The desk says where it is set; the Status tab shows the hub and the sync.
 */
function HubSection() {
  const { t } = useTranslation();
  return (
    <Section title={t('settings.hub')}>
      <p>{t('settings.hubOwner')}</p>
    </Section>
  );
}

function PinSection({ api }: FrontDeskProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ currentPin: '', pin: '', repeat: '' });
  const { busy, notice, run } = useAction();
  const save = () =>
    run(async () => {
      if (draft.pin !== draft.repeat) throw new Refusal(t('frontDesk.pinMismatch'));
      await api.send('POST', '/v1/kiosk/pin', { pin: draft.pin, currentPin: draft.currentPin });
      setDraft({ currentPin: '', pin: '', repeat: '' });
      return t('frontDesk.pinChanged');
    });
  const pin = (key: 'currentPin' | 'pin' | 'repeat', label: string) => (
    <TextInput
      label={label}
      type="password"
      maxLength={12}
      value={draft[key]}
      onChange={(value) => setDraft({ ...draft, [key]: value })}
    />
  );
  return (
    <Section
      title={t('settings.changePin')}
      onSave={save}
      saveLabel={t('frontDesk.setPin')}
      busy={busy}
      notice={notice}
    >
      {pin('currentPin', t('frontDesk.currentPin'))}
      {pin('pin', t('frontDesk.newPin'))}
      {pin('repeat', t('frontDesk.repeatPin'))}
    </Section>
  );
}
