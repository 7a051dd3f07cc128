/** What a visit's state was, in one word: the visit log's status filter and the export's "State" column. */
export const visitStates = ['inside', 'waiting', 'out', 'denied', 'blocked'] as const;
export type VisitState = (typeof visitStates)[number];
