import { useState } from 'react';
import { timeOfDay } from '../../time.ts';
import { useConsole } from '../context.ts';
import { problemCode } from '../problem-code.ts';
import { useWords } from '../words.ts';
import type { WaitingVisit } from './waiting.ts';
import { approvalsWords } from './words.ts';

/** A visitor type as the card names it. */
export interface TypeName {
  id: string;
  name: string;
  localizedName?: Partial<Record<string, string>> | null;
}

/**
 * One visitor waiting at the door: the picture, who they are and whom they visit, their kind and their answers,
 * and Allow / Deny (PATCH /v1/visit/allow|deny/:id, decided from the console: `DASHBOARD`). `onDecided` tells the
 * page the sentence to announce.
 */
export function ApprovalCard(props: {
  visit: WaitingVisit;
  types: readonly TypeName[];
  onDecided: (sentence: string, failed: boolean) => void;
}) {
  const { visit, types, onDecided } = props;
  const { api, lang, session } = useConsole();
  const words = useWords(approvalsWords);
  const [busy, setBusy] = useState(false);
  const name = visit.name || words.unnamed;
  const type = types.find((t) => t.id === visit.visitorTypeId);
  const answers = (visit.customFields ?? []).filter((answer) => answer.value !== '');
  const decide = async (decision: 'allow' | 'deny') => {
    setBusy(true);
    try {
      await api.send('PATCH', `/v1/visit/${decision}/${visit.id}`, { authorizationVia: 'DASHBOARD' });
      onDecided(decision === 'allow' ? words.allowed(name) : words.denied(name), false);
    } catch (error) {
      onDecided(words.failed(problemCode(error)), true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="console-card approval">
      {visit.pictureSignedUrl ? (
        <img className="approval-picture" src={visit.pictureSignedUrl} alt={words.picture(name)} />
      ) : (
        <span className="approval-picture approval-initial" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
      )}
      <div className="approval-about">
        <h3>{name}</h3>
        <p>{words.arrived(timeOfDay(lang, session.company.timeZone, visit.checkinAt))}</p>
        <dl className="approval-facts">
          <dt>{words.host}</dt>
          <dd>{visit.host?.name ?? words.noHost}</dd>
          {visit.company && (
            <>
              <dt>{words.company}</dt>
              <dd>{visit.company}</dd>
            </>
          )}
          {type && (
            <>
              <dt>{words.visitorType}</dt>
              <dd>{type.localizedName?.[lang] || type.name}</dd>
            </>
          )}
          {answers.map((answer) => (
            <div key={answer.id} className="approval-answer">
              <dt>{answer.localizedName?.[lang] || answer.name}</dt>
              <dd>{answer.localizedValue?.[lang] || answer.value}</dd>
            </div>
          ))}
        </dl>
        {visit.heldAtDoor && (
          <p className="approval-held" role="note">
            {words.heldAtDoor} {visit.statusNote}
          </p>
        )}
      </div>
      <div className="approval-actions">
        {(['deny', 'allow'] as const).map((decision) => (
          <button
            key={decision}
            type="button"
            className={`btn ${decision === 'allow' ? 'btn-primary' : 'btn-secondary'}`}
            disabled={busy}
            aria-label={`${words[decision]}: ${name}`}
            onClick={() => void decide(decision)}
          >
            {words[decision]}
          </button>
        ))}
      </div>
    </li>
  );
}
