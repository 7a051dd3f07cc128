import { useTranslation } from 'react-i18next';
import { visitCode } from '../codes.ts';
import { dateAndTime } from '../time.ts';
import type { Visit } from '../types.ts';
import { QrImage } from './QrImage.tsx';

/**
 * The visitor's badge, laid out for a 62 × 100 mm label (print CSS: `@page badge`). Its QR code is the visit's
 * reference (`portaria:visit:<id>`), which the kiosk reads at check-out; it carries no personal data.
 */
export function Badge(props: {
  visit: Visit;
  companyName: string | undefined;
  picture: string | undefined;
  lang: string;
  timeZone: string;
}) {
  const { t } = useTranslation();
  const { visit } = props;
  const picture = props.picture ?? visit.pictureSignedUrl ?? undefined;
  return (
    <article className="badge" aria-label={t('badge.label')}>
      <header className="badge-company">{props.companyName}</header>
      <p className="badge-kind">{t('badge.visitor')}</p>
      {picture && <img className="badge-picture" src={picture} alt="" />}
      <p className="badge-name">{visit.name}</p>
      {visit.company && <p className="badge-visitor-company">{visit.company}</p>}
      <dl className="badge-facts">
        {visit.host && (
          <div>
            <dt>{t('badge.host')}</dt>
            <dd>{visit.host.name}</dd>
          </div>
        )}
        <div>
          <dt>{t('badge.date')}</dt>
          <dd>{dateAndTime(props.lang, props.timeZone, visit.checkinAt)}</dd>
        </div>
      </dl>
      <QrImage className="badge-qr" text={visitCode(visit.id)} label={t('badge.qr')} />
    </article>
  );
}
