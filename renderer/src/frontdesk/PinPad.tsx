import { useId } from 'react';
import { useTranslation } from 'react-i18next';

const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;
const maxDigits = 12;

/**
 * A PIN typed on the screen's own keypad (a kiosk has no keyboard) or on a keyboard; digits only, shown as dots.
 */
export function PinPad(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  submitLabel: string;
  onSubmit: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const press = (digit: string) => {
    if (props.value.length < maxDigits) props.onChange(props.value + digit);
  };
  return (
    <form
      className="pin-pad"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={maxDigits}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value.replace(/\D/g, ''))}
      />
      <div className="keypad">
        {keys.map((digit) => (
          <button key={digit} type="button" className="btn btn-key" onClick={() => press(digit)}>
            {digit}
          </button>
        ))}
        <button
          type="button"
          className="btn btn-key"
          aria-label={t('frontDesk.erase')}
          onClick={() => props.onChange(props.value.slice(0, -1))}
        >
          ⌫
        </button>
        <button type="button" className="btn btn-key" onClick={() => press('0')}>
          0
        </button>
        <button type="submit" className="btn btn-key btn-primary" disabled={props.busy || props.value === ''}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}
