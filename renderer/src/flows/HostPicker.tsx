import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matching } from '../search.ts';
import type { HostSummary } from '../types.ts';

/** Whom the visitor came for: a host, the reception (they do not know whom), or nobody (no host to choose). */
export type HostChoice = { kind: 'host'; host: HostSummary } | { kind: 'reception' } | { kind: 'none' };

/** The host id a check-in sends for a choice: none for the reception. */
export const hostIdOf = (choice: HostChoice): string | null => (choice.kind === 'host' ? choice.host.id : null);

/**
 * Type-ahead over the kiosk's hosts, by name, department or position, accent- and case-insensitive. An ARIA
 * combobox: arrows move through the people found, Enter chooses; on a touch screen each person is a large button.
 * A visitor who does not know whom they are visiting chooses the reception instead.
 */
export function HostPicker(props: {
  hosts: readonly HostSummary[];
  choice: HostChoice | undefined;
  onChange: (choice: HostChoice | undefined) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const results = matching(props.hosts, query, (h) => [h.name, h.sector, h.position]);
  const { choice } = props;

  if (choice && choice.kind !== 'none') {
    return (
      <div className="chosen-host">
        <p className="host-card" role="status">
          {choice.kind === 'host' ? (
            <>
              <span className="host-name">{t('host.chosen', { name: choice.host.name })}</span>
              {choice.host.sector && <span className="host-sector">{choice.host.sector}</span>}
            </>
          ) : (
            <span className="host-name">{t('host.receptionChosen')}</span>
          )}
        </p>
        <button type="button" className="btn btn-secondary" onClick={() => props.onChange(undefined)}>
          {t('host.change')}
        </button>
      </div>
    );
  }

  const choose = (host: HostSummary | undefined) => {
    if (!host) return;
    setQuery('');
    props.onChange({ kind: 'host', host });
  };
  const optionId = (index: number) => `${id}-option-${index}`;
  return (
    <div className="host-picker">
      <div className="field">
        <label htmlFor={`${id}-input`}>{t('host.label')}</label>
        <input
          id={`${id}-input`}
          role="combobox"
          aria-expanded={results.length > 0}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={results.length > 0 ? optionId(Math.min(active, results.length - 1)) : undefined}
          // biome-ignore lint/a11y/noAutofocus: the step's one question; the visitor types at once
          autoFocus
          autoComplete="off"
          placeholder={t('host.placeholder')}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, results.length - 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
            else if (e.key === 'Enter') choose(results[Math.min(active, results.length - 1)]);
            else return;
            e.preventDefault();
          }}
        />
      </div>
      <div id={`${id}-list`} role="listbox" aria-label={t('host.results')} className="host-results">
        {results.map((host, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys (ARIA combobox pattern)
          <div
            key={host.id}
            id={optionId(index)}
            role="option"
            tabIndex={-1}
            aria-selected={index === active}
            className="host-option"
            onClick={() => choose(host)}
          >
            <span className="host-name">{host.name}</span>
            {(host.sector || host.position) && (
              <span className="host-sector">{[host.position, host.sector].filter(Boolean).join(' · ')}</span>
            )}
          </div>
        ))}
      </div>
      {query.trim() !== '' && results.length === 0 && <p className="hint">{t('host.noMatch')}</p>}
      <button
        type="button"
        className="btn btn-secondary btn-reception"
        onClick={() => props.onChange({ kind: 'reception' })}
      >
        {t('host.dontKnow')}
      </button>
    </div>
  );
}
