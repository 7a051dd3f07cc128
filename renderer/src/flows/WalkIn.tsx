import { useState } from 'react';
import { type Api, withRetries } from '../api.ts';
import { answerItems } from '../custom-fields.ts';
import { uuidV4 } from '../ids.ts';
import type { KioskData } from '../kiosk-data.ts';
import type { KioskVisit, ReturningVisitor, VisitorType } from '../types.ts';
import { visitorBody } from '../visitor-rules.ts';
import { CheckinSteps, type Prefilled, requirementsOf, type Step } from './CheckinSteps.tsx';
import { hostIdOf } from './HostPicker.tsx';
import { Returning } from './Returning.tsx';

/** A returning visitor's proof as the check-in starts from it: their details, last host, and their yes. */
function prefilledOf(found: ReturningVisitor): Prefilled {
  return {
    visitor: { ...(found.name ? { name: found.name } : {}), ...(found.company ? { company: found.company } : {}) },
    host: found.host ? { kind: 'host', host: found.host } : undefined,
    // Found only because they said yes: the yes stands until they change it here.
    remember: true,
  };
}

/** Fields that can match a blocklist entry: only a visitor who gave one of them is screened before the end. */
const identifying = new Set(['email', 'phone', 'cpf', 'rg', 'document']);

/**
 * A walk-in check-in: the visitor's data, whom they visit, the company's custom fields and questionnaire, a
 * picture and the agreement, as the visitor's type (or the kiosk) asks them; steps the company does not use are
 * left out. A returning visitor who proves who they are ("I have been here before") starts from a "Welcome back"
 * screen with their details and last host filled in, and goes on to what is left. The visit's id is made once, so sending again after a lost answer cannot check the visitor in twice;
 * the same id lets the blocklist stop the visitor right after their data, before the picture and the signature.
 */
export function WalkIn(props: {
  api: Api;
  data: KioskData;
  lang: string;
  visitorType: VisitorType | undefined;
  onDone: (visit: KioskVisit, picture: string | undefined) => void;
  onStopped: (name: string) => void;
  onCancel: () => void;
}) {
  const { api, data, visitorType } = props;
  const [visitId] = useState(uuidV4);
  const [returning, setReturning] = useState<'proving' | ReturningVisitor>();
  const requirements = requirementsOf(data, visitorType, props.lang);
  const { rules, fieldDefs, questionDefs, visitorFields } = requirements;
  const found = typeof returning === 'object' ? returning : undefined;
  // The host step is always offered (the service finds hosts by name, and "I don't know" leads to the reception),
  // but to a returning visitor on "Welcome back", with their last host chosen.
  const steps = (
    [
      found ? 'welcomeBack' : 'details',
      !found && 'host',
      fieldDefs.length > 0 && 'fields',
      questionDefs.length > 0 && 'questionnaire',
      rules.pictureMode !== 'off' && 'picture',
      rules.ndaText.trim() !== '' && 'nda',
    ] as const
  ).filter((s): s is Step => s !== false);
  const visit = { id: visitId, ...(visitorType ? { visitorTypeId: visitorType.id } : {}) };

  if (returning === 'proving') {
    return (
      <Returning
        api={api}
        lang={props.lang}
        channels={data.company?.returningCodeChannels ?? []}
        onFound={setReturning}
        onBack={() => setReturning(undefined)}
        onCancel={props.onCancel}
      />
    );
  }

  return (
    <CheckinSteps
      // A new start for a returning visitor: the steps begin again from "Welcome back", filled in.
      key={found ? 'returning' : 'new'}
      api={api}
      steps={steps}
      requirements={requirements}
      data={data}
      lang={props.lang}
      asksRemember
      prefilled={found && prefilledOf(found)}
      onReturning={() => setReturning('proving')}
      screen={async (visitor) => {
        const body = visitorBody(visitor, visitorFields);
        if (!Object.keys(body).some((key) => identifying.has(key))) return false;
        const answer = await withRetries(() =>
          api.send<{ stop: boolean }>('POST', '/v1/kiosk/screen', { visit, visitor: body }),
        );
        return answer.stop;
      }}
      submit={({ visitor, host, answers, picture, nda, remember }) =>
        withRetries(() =>
          // The service decides the rest (time, card, whether the host must allow it) from the type and settings.
          api.send<KioskVisit>('POST', '/v1/kiosk/walkin', {
            visit: {
              ...visit,
              hostId: hostIdOf(host),
              customFields: answerItems(fieldDefs, answers, 'FIELD'),
              questionnaireFields: answerItems(questionDefs, answers, 'QUESTIONNAIRE'),
              ...(nda ? { ndaSignature: nda.signature } : {}),
              ...(remember === undefined ? {} : { rememberVisitor: remember }),
            },
            visitor: visitorBody(visitor, visitorFields),
            ...(found ? { returning: found.ticket } : {}),
            ...(picture ? { visitPicture: picture.slice(picture.indexOf(',') + 1) } : {}),
            ...(nda ? { visitNda: nda.pdf } : {}),
          }),
        )
      }
      onDone={props.onDone}
      onStopped={props.onStopped}
      onCancel={props.onCancel}
    />
  );
}
