import type { TFunction } from 'i18next';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { auditEntrySchema } from '../../../local-api/audit/schema.ts';
import { Notice, Spinner } from '../components/ui.tsx';
import { problemText } from '../problems.ts';
import { dateAndTime } from '../time.ts';
import type { Credential } from './ApiKeysSection.tsx';
import { Select, TextInput, useAction } from './kit.tsx';
import type { SettingsProps } from './props.ts';

type AuditEntry = z.infer<typeof auditEntrySchema>;

/** A page: newest first, 50 entries; the next page starts below the last id shown (stable while entries arrive). */
const pageSize = 50;

interface Filter {
  action: string;
  actor: string;
}

function pagePath(filter: Filter, before?: number): string {
  const params = new URLSearchParams({ order: 'newest', limit: String(pageSize) });
  if (filter.action.trim()) params.set('action', filter.action.trim());
  if (filter.actor) params.set('actor', filter.actor);
  if (before !== undefined) params.set('before', String(before));
  return `/v1/audit?${params.toString()}`;
}

/** Who acted, in words: the host, the key or session by its label, else what acted (the device owner, the service). */
function actorOf(entry: AuditEntry, t: TFunction<['admin', 'translation']>): string {
  if (entry.actorHostName) return entry.actorHostName;
  if (entry.actorLabel) return entry.actorLabel;
  if (entry.actorRole === 'owner') return t('audit.owner');
  if (entry.actorCredentialId === 'system') return t('audit.system');
  if (entry.actorRole === 'signedLink') return t('audit.signedLink');
  return entry.actorRole ?? '—';
}

/**
 * The audit log, newest first, page by page: what was done (the action's own name, as the API and the docs spell
 * it), to what, by whom and when; narrowed to one action, or to one key or session, and the entries of whoever acted
 * in a row are one click away.
 */
export function AuditLogSection({ api, data, lang }: SettingsProps) {
  const { t } = useTranslation(['admin', 'translation']);
  const id = useId();
  const [entries, setEntries] = useState<AuditEntry[]>();
  const [more, setMore] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [typed, setTyped] = useState<Filter>({ action: '', actor: '' });
  const [filter, setFilter] = useState<Filter>({ action: '', actor: '' });
  const [actors, setActors] = useState<{ value: string; label: string }[]>([]);
  const older = useAction();

  const read = useCallback(
    async (shown: Filter, before?: number) => {
      const page = await api.get<{ entries: AuditEntry[] }>(pagePath(shown, before));
      setMore(page.entries.length === pageSize);
      return page.entries;
    },
    [api],
  );
  useEffect(() => {
    setEntries(undefined);
    read(filter).then(
      (page) => {
        setEntries(page);
        setProblem(undefined);
      },
      (error) => setProblem(problemText(error)),
    );
  }, [read, filter]);
  // The keys and sessions to narrow to, by their labels; a role that may not list credentials types none.
  useEffect(() => {
    api.get<{ credentials: Credential[] }>('/v1/credentials').then(
      (answer) =>
        setActors(answer.credentials.map((c) => ({ value: c.id, label: `${c.label} (${t(`keys.role.${c.role}`)})` }))),
      () => setActors([]),
    );
  }, [api, t]);

  const showOlder = () =>
    older.run(async () => {
      const last = entries?.at(-1);
      if (!last) return undefined;
      const page = await read(filter, last.id);
      setEntries([...(entries ?? []), ...page]);
      return undefined;
    });
  const byActor = (entry: AuditEntry) => {
    const actor = entry.actorHostId ?? entry.actorCredentialId ?? '';
    const next = { ...typed, actor };
    setTyped(next);
    setFilter(next);
  };
  const actions = [...new Set(entries?.map((entry) => entry.action))].sort();
  const actorOptions = [{ value: '', label: t('audit.everyone') }, ...actors];
  if (typed.actor && !actors.some((actor) => actor.value === typed.actor)) {
    const shown = entries?.find((e) => (e.actorHostId ?? e.actorCredentialId) === typed.actor);
    actorOptions.push({ value: typed.actor, label: shown ? actorOf(shown, t) : typed.actor });
  }
  return (
    <section className="fd-section audit-log" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('audit.title')}</h2>
      <p className="hint">{t('audit.intro')}</p>
      <form
        className="form audit-filter"
        noValidate
        aria-label={t('audit.filter')}
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(typed);
        }}
      >
        <TextInput
          label={t('audit.action')}
          optional
          maxLength={100}
          value={typed.action}
          onChange={(action) => setTyped({ ...typed, action })}
        />
        <Select
          label={t('audit.actor')}
          value={typed.actor}
          options={actorOptions}
          onChange={(actor) => setTyped({ ...typed, actor })}
        />
        <div className="card-actions">
          <button type="submit" className="btn btn-primary">
            {t('audit.apply')}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              const none = { action: '', actor: '' };
              setTyped(none);
              setFilter(none);
            }}
          >
            {t('audit.clear')}
          </button>
        </div>
        {actions.length > 0 && (
          <p className="hint">
            {t('audit.seen')}{' '}
            {actions.map((action) => (
              <button
                key={action}
                type="button"
                className="btn btn-small btn-secondary audit-action"
                aria-label={t('audit.onlyAction', { action })}
                onClick={() => {
                  const next = { ...typed, action };
                  setTyped(next);
                  setFilter(next);
                }}
              >
                {action}
              </button>
            ))}
          </p>
        )}
      </form>
      {problem && <Notice kind="error">{problem}</Notice>}
      {!entries && !problem && <Spinner label={t('translation:common.loading')} />}
      {entries?.length === 0 && <p>{t('audit.none')}</p>}
      {entries && entries.length > 0 && (
        <table className="table console-table">
          <caption className="sr-only">{t('audit.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('audit.when')}</th>
              <th scope="col">{t('audit.action')}</th>
              <th scope="col">{t('audit.object')}</th>
              <th scope="col">{t('audit.actor')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className="audit-when" data-label={t('audit.when')}>
                  {dateAndTime(lang, data.timeZone, entry.at)}
                </td>
                <td data-label={t('audit.action')}>
                  <code>{entry.action}</code>
                </td>
                <td data-label={t('audit.object')}>
                  <span className="wrap">{[entry.objectType, entry.objectId].filter(Boolean).join(' ') || '—'}</span>
                </td>
                <td data-label={t('audit.actor')}>
                  {entry.actorHostId || entry.actorCredentialId ? (
                    <button
                      type="button"
                      className="btn-link wrap"
                      aria-label={t('audit.onlyActor', { actor: actorOf(entry, t) })}
                      onClick={() => byActor(entry)}
                    >
                      {actorOf(entry, t)}
                    </button>
                  ) : (
                    actorOf(entry, t)
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {more && (
        <button type="button" className="btn btn-secondary" disabled={older.busy} onClick={showOlder}>
          {t('audit.older')}
        </button>
      )}
      {older.notice}
    </section>
  );
}
