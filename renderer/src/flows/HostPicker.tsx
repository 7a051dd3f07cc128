import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Api } from '../api.ts';
import type { HostFound } from '../types.ts';

/** Whom the visitor came for: a host, or the reception (they do not know whom). */
export type HostChoice = { kind: 'host'; host: HostFound } | { kind: 'reception' } | { kind: 'none' };

/** Letters typed before the service is asked (its own minimum), and the pause after the last one. */
const minLetters = 3;
const pauseMs = 200;

/** The host id a check-in sends for a choice: none for the reception. */
export const hostIdOf = (choice: HostChoice): string | null => (choice.kind === 'host' ? choice.host.id : null);

/**
 * Type-ahead over the kiosk's hosts: the service finds them by any of their names (`GET /v1/kiosk/hosts`, name
 * and sector only, a few at most), so the page never holds the list of who works here. An ARIA combobox: arrows
 * move through the people found, Enter chooses; on a touch screen each person is a large button. A visitor who
 * does not know whom they are visiting chooses the reception instead.
 */
export function HostPicker(props: {
  api: Api;
  choice: HostChoice | undefined;
  onChange: (choice: HostChoice | undefined) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [results, setResults] = useState<HostFound[]>([]);
  const [searched, setSearched] = useState('');
  const { api, choice } = props;
  const typed = query.trim();

  useEffect(() => {
    if ([...typed.replaceAll(' ', '')].length < minLetters) {
      setResults([]);
      setSearched('');
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      api.get<{ hosts: HostFound[] }>(`/v1/kiosk/hosts?${new URLSearchParams({ name: typed })}`).then(
        (answer) => {
          if (!current) return;
          setResults(answer.hosts);
          setSearched(typed);
        },
        () => undefined,
      );
    }, pauseMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, typed]);

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

  const choose = (host: HostFound | undefined) => {
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
            {host.sector && <span className="host-sector">{host.sector}</span>}
          </div>
        ))}
      </div>
      {searched !== '' && searched === typed && results.length === 0 && <p className="hint">{t('host.noMatch')}</p>}
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
