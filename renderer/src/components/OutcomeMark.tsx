/**
 * The large mark at the top of an outcome screen, so the visitor sees at a glance how it ended: a tick for a
 * check-in, an hourglass while someone decides, a hand raised for "please speak to the reception", a wave for
 * goodbye. Decorative: the heading and the text beside it say the same in words.
 */
export function OutcomeMark({ kind }: { kind: 'success' | 'waiting' | 'reception' | 'goodbye' }) {
  return (
    <svg className={`outcome-mark outcome-mark-${kind}`} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <circle cx="24" cy="24" r="22" />
      {kind === 'success' && <path d="M14 25l7 7 13-15" />}
      {kind === 'waiting' && (
        <path d="M16 12h16M16 36h16M18 12c0 8 12 8 12 12s-12 4-12 12M30 12c0 8-12 8-12 12s12 4 12 12" />
      )}
      {kind === 'reception' && <path d="M24 13v14M24 33v2" />}
      {kind === 'goodbye' && <path d="M15 27c3 5 15 5 18 0M18 19v2M30 19v2" />}
    </svg>
  );
}
