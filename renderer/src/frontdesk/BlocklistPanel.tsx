import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Api } from '../api.ts';
import { Notice } from '../components/ui.tsx';
import { itemsOf } from '../kiosk-data.ts';
import { problemText, Refusal } from '../problems.ts';
import { RowAction, Section, TextInput, useAction } from '../settings/kit.tsx';

interface Entry {
  id: string;
  name: string | null;
  reason: string | null;
  cpf: string | null;
  document: string | null;
  email: string | null;
  phone: string | null;
}

const identifiers = ['cpf', 'document', 'email', 'phone'] as const;
type Draft = Record<'name' | 'reason' | (typeof identifiers)[number], string>;
const emptyDraft: Draft = { name: '', reason: '', cpf: '', document: '', email: '', phone: '' };

/** The blocklist (`/v1/blockedlist`): who is on it, adding and removing; absent where the service has none. */
export function BlocklistPanel({ api }: { api: Api }) {
  const { t } = useTranslation();
  const [entries, setEntries] = useState<Entry[] | null>();
  const [problem, setProblem] = useState<string>();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const { busy, notice, run } = useAction();
  const reload = useCallback(
    () =>
      api.optional<unknown>('/v1/blockedlist').then(
        (answer) => setEntries(answer === undefined ? null : itemsOf<Entry>(answer, 'blockedlist')),
        (error) => setProblem(problemText(error)),
      ),
    [api],
  );
  useEffect(() => {
    void reload();
  }, [reload]);

  if (entries === null) return <p>{t('blocklist.unavailable')}</p>;
  const add = () =>
    run(async () => {
      const body = Object.fromEntries(Object.entries(draft).filter(([, v]) => v.trim() !== ''));
      if (!identifiers.some((key) => body[key]) && !body.name) throw new Refusal(t('blocklist.needOne'));
      await api.send('POST', '/v1/blockedlist', body);
      setDraft(emptyDraft);
      await reload();
      return t('blocklist.added', { name: draft.name || draft.cpf || draft.document || draft.email || draft.phone });
    });
  const remove = (entry: Entry) =>
    run(async () => {
      await api.send('DELETE', `/v1/blockedlist/${entry.id}`);
      await reload();
      return t('blocklist.removed', { name: entry.name ?? '' });
    });
  return (
    <div className="blocklist">
      {problem && <Notice kind="error">{problem}</Notice>}
      {entries?.length === 0 && <p>{t('blocklist.empty')}</p>}
      <ul className="card-list">
        {entries?.map((entry) => (
          <li key={entry.id} className="card">
            <p className="card-title">{entry.name}</p>
            <p>{[entry.cpf, entry.document, entry.email, entry.phone].filter(Boolean).join(' · ')}</p>
            {entry.reason && <p className="hint">{entry.reason}</p>}
            <div className="card-actions">
              <RowAction
                className="btn-secondary"
                label={t('common.remove')}
                name={entry.name}
                disabled={busy}
                onClick={() => remove(entry)}
              />
            </div>
          </li>
        ))}
      </ul>
      <Section title={t('blocklist.add')} onSave={add} saveLabel={t('blocklist.add')} busy={busy} notice={notice}>
        <TextInput label={t('visitor.name')} value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
        {identifiers.map((key) => (
          <TextInput
            key={key}
            label={t(`visitor.${key}`)}
            optional
            value={draft[key]}
            onChange={(value) => setDraft({ ...draft, [key]: value })}
          />
        ))}
        <TextInput
          label={t('blocklist.reason')}
          optional
          value={draft.reason}
          onChange={(reason) => setDraft({ ...draft, reason })}
        />
      </Section>
    </div>
  );
}
