import { useTranslation } from 'react-i18next';
import { inLanguage } from '../../../local-api/visitor-types/rules.ts';
import { visitCode } from '../codes.ts';
import type { KioskData } from '../kiosk-data.ts';
import { dateAndTime } from '../time.ts';
import type { KioskVisit, VisitorType } from '../types.ts';
import { BadgeGateCode, type GateAnswer } from './GatePass.tsx';
import { QrImage } from './QrImage.tsx';

/** The word on the badge: the visit's type's label in the visitor's language; undefined for "Visitor". */
function badgeLabel(types: readonly VisitorType[], typeId: string | null | undefined, lang: string) {
  const type = types.find((candidate) => candidate.id === typeId);
  return type ? inLanguage(type.localizedBadgeLabel, lang, type.badgeLabel) : undefined;
}

/**
 * How large the name is printed: a short name large, a long one smaller, and beyond that wrapped and cut with an
 * ellipsis (print CSS), so that the host, the date and the check-out code always keep their place on the label.
 */
export function nameSize(name: string): 'large' | 'medium' | 'small' | 'tiny' {
  const length = [...name].length;
  if (length <= 18) return 'large';
  if (length <= 32) return 'medium';
  if (length <= 60) return 'small';
  return 'tiny';
}

/**
 * The visitor's badge, laid out for a 62 × 100 mm label (print CSS: `@page badge`). Its QR code is the visit's
 * reference (`portaria:visit:<id>`), which the kiosk reads at check-out; it carries no personal data.
 */
/** What a badge shows of a visit: the kiosk's own visit object has it, and the desk's visit once its host is named. */
export type BadgeVisit = Pick<KioskVisit, 'id' | 'name' | 'company' | 'hostName' | 'checkinAt'> &
  Partial<Pick<KioskVisit, 'pictureSignedUrl' | 'visitorTypeId'>>;

export function Badge(props: {
  data: KioskData;
  visit: BadgeVisit;
  picture: string | undefined;
  lang: string;
  /** The gate code, printed beside the check-out code where it is not sent to the visitor's phone. */
  gateCode?: GateAnswer | undefined;
}) {
  const { t } = useTranslation();
  const { data, visit, lang } = props;
  const label = badgeLabel(data.visitorTypes, visit.visitorTypeId, lang);
  const picture = props.picture ?? visit.pictureSignedUrl ?? undefined;
  const name = visit.name ?? '';
  return (
    <article className="badge" aria-label={t('badge.label')}>
      <header className="badge-company">{data.company?.name}</header>
      <p className="badge-kind">{label ?? t('badge.visitor')}</p>
      {picture && <img className="badge-picture" src={picture} alt="" />}
      <p className={`badge-name badge-name-${nameSize(name)}`} title={name}>
        {name}
      </p>
      {visit.company && <p className="badge-visitor-company">{visit.company}</p>}
      <dl className="badge-facts">
        {visit.hostName && (
          <div>
            <dt>{t('badge.host')}</dt>
            <dd>{visit.hostName}</dd>
          </div>
        )}
        <div>
          <dt>{t('badge.date')}</dt>
          <dd>{dateAndTime(lang, data.timeZone, visit.checkinAt)}</dd>
        </div>
      </dl>
      <div className="badge-codes">
        {props.gateCode && <BadgeGateCode code={props.gateCode} lang={lang} timeZone={data.timeZone} />}
        <figure className="badge-checkout">
          <QrImage className="badge-qr" text={visitCode(visit.id)} label={t('badge.qr')} />
          <figcaption>{t('badge.checkoutCode')}</figcaption>
        </figure>
      </div>
    </article>
  );
}
