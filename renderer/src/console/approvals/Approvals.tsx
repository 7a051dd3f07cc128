import { useCallback, useState } from 'react';
import { useConsole } from '../context.ts';
import { useLiveLoad } from '../live-load.ts';
import { problemCode } from '../problem-code.ts';
import { useWords } from '../words.ts';
import { ApprovalCard, type TypeName } from './ApprovalCard.tsx';
import './approvals.css';
import { decidesFor, waitingVisits } from './waiting.ts';
import { approvalsWords } from './words.ts';

/**
 * Approvals (docs/console.md, "Approvals"): the visitors waiting at the door for a decision, newest first, each
 * allowed or denied here; the list follows the company live, so a decision made at the front desk or by another
 * person removes the card.
 */
export default function Approvals() {
  const { api, session } = useConsole();
  const words = useWords(approvalsWords);
  const load = useCallback(async () => {
    const [visits, types] = await Promise.all([
      waitingVisits(api, decidesFor(session)),
      // The names of the kinds of visitor; a card without one still shows the rest.
      api.get<{ visitorTypes: TypeName[] }>('/v1/visitortypes').then(
        (answer) => answer.visitorTypes,
        () => [],
      ),
    ]);
    return { visits, types };
  }, [api, session]);
  const { value, problem, reload } = useLiveLoad(load, ['visits', 'settings']);
  const [outcome, setOutcome] = useState<{ text: string; failed: boolean }>();
  const decided = (text: string, failed: boolean) => {
    setOutcome({ text, failed });
    void reload();
  };
  return (
    <div className="approvals">
      <p role="status" className={outcome?.failed ? 'console-problem' : 'console-outcome'}>
        {outcome?.text}
      </p>
      {problem !== undefined && <p role="alert">{words.failed(problemCode(problem))}</p>}
      {value === undefined && problem === undefined && <p>{words.loading}</p>}
      {value && (
        <>
          <h2>{value.visits.length === 0 ? words.empty : words.waitingCount(value.visits.length)}</h2>
          <ul className="approval-list">
            {value.visits.map((visit) => (
              <ApprovalCard key={visit.id} visit={visit} types={value.types} onDecided={decided} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
