import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExitKioskResult } from '../../../preload/api.ts';
import { Refusal } from '../problems.ts';
import { useAction } from '../settings/kit.tsx';
import { PinPad } from './PinPad.tsx';

/** The sentence for a refused exit, in the words the service's own answers use. */
function refusal(result: Exclude<ExitKioskResult, { exited: true }>, t: ReturnType<typeof useTranslation>['t']) {
  switch (result.reason) {
    case 'WRONG_PIN':
      return t('errors.WRONG_PIN');
    case 'NO_PIN_SET':
      return t('errors.PIN_NOT_SET');
    case 'LOCKED':
      return t('errors.TOO_MANY_REQUESTS', { retryAfter: Math.ceil(result.retryAfterMs / 1000) });
    default:
      return t('errors.SERVICE_UNREACHABLE');
  }
}

/**
 * "Leave kiosk mode", only inside the Electron shell (where `window.portaria.exitKiosk` exists): the shell asks the
 * service's PIN again, since the desk may have been left open, and leaves full screen when it matches.
 */
export function LeaveKiosk() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [pin, setPin] = useState('');
  const { busy, notice, run } = useAction();
  const bridge = window.portaria;
  if (!bridge?.exitKiosk) return null;
  const leave = () =>
    run(async () => {
      const result = await bridge.exitKiosk(pin);
      if (!result.exited) throw new Refusal(refusal(result, t));
      setOpen(false);
      return t('leaveKiosk.left');
    }).finally(() => setPin(''));
  return (
    <section className="fd-section leave-kiosk" aria-labelledby="leave-kiosk-title">
      <h2 id="leave-kiosk-title">{t('leaveKiosk.title')}</h2>
      {!open && (
        <button type="button" className="btn btn-secondary" onClick={() => setOpen(true)}>
          {t('leaveKiosk.button')}
        </button>
      )}
      {open && (
        <PinPad
          label={t('leaveKiosk.pin')}
          value={pin}
          onChange={setPin}
          submitLabel={t('leaveKiosk.confirm')}
          onSubmit={leave}
          busy={busy}
        />
      )}
      {notice}
    </section>
  );
}
