import type { BlocklistField } from '../blocklist/schema.ts';
import { isLanguage, type Language } from '../rules/lang.ts';

/*
 * What the service says to people, in the company's language. Small on purpose: the kiosk's screens have their own
 * catalogue in the renderer; these are the words that leave the service (e-mails, webhook texts, status notes).
 */

interface Catalogue {
  arrivedSubject: string;
  arrivedText: string;
  /** The reminder before an expected guest (notifications/reminders.ts). */
  reminderSubject: string;
  reminderText: string;
  /** Whom a message posted to a shared channel (Slack, Teams) is for. */
  forHost: string;
  /** A visitor who waits for the host's approval: the message carries Allow and Deny where links can be made. */
  approvalText: string;
  allowLabel: string;
  denyLabel: string;
  /** The arrival message's link: opening or tapping it tells the service the host saw it (no escalation then). */
  onMyWayLabel: string;
  /** To the fallback (the host's other addresses, the reception) when the host neither opened nor answered. */
  escalationSubject: string;
  escalationText: string;
  blockedSubject: string;
  blockedText: string;
  /** A visitor a kiosk let in while offline, whom the hub's blocklist stops: they may be inside. */
  blockedInsideText: string;
  blockedNote: string;
  /** A visitor whose name is on the blocklist, with nothing to tell them apart: held for the front desk. */
  heldSubject: string;
  heldText: string;
  heldNote: string;
  visitSubject: string;
  deliverySubject: string;
  noReason: string;
  /** The front desk's test of a channel. */
  testSubject: string;
  testText: string;
  fields: Record<BlocklistField, string>;
}

const catalogues: Record<Language, Catalogue> = {
  en: {
    arrivedSubject: 'Your visitor {visitor} has arrived',
    arrivedText: '{visitor} checked in at {time}.',
    reminderSubject: 'Reminder: {visitor} is expected at {time}',
    reminderText: 'Your guest {visitor} is expected at {time}. You will be told when they check in.',
    forHost: 'For {host}',
    approvalText: '{visitor} checked in at {time} and waits at the reception for your approval.',
    allowLabel: 'Allow',
    denyLabel: 'Deny',
    onMyWayLabel: "I'm on my way",
    escalationSubject: '{host} has not answered about {visitor}',
    escalationText:
      '{visitor} checked in at {time} to see {host}, who has not opened or answered the message in {minutes} minutes. Please see to the visitor.',
    blockedSubject: 'Blocked visitor at the door: {visitor}',
    blockedText: '{visitor} tried to check in at {time} and was not let in. {note}',
    blockedInsideText: '{visitor} checked in at {time} at a kiosk that was offline, and may be inside. {note}',
    blockedNote: 'Blocklist match ({field}): {reason}',
    heldSubject: 'Visitor held at the door: {visitor}',
    heldText: '{visitor} checked in at {time} and waits at the reception for your decision. {note}',
    heldNote: 'Possible blocklist match (name only): {reason}',
    visitSubject: 'A message about your visitor',
    deliverySubject: 'A delivery has arrived for you',
    noReason: 'none given',
    testSubject: 'Portaria: test message',
    testText: 'This is a test from the front desk of your Portaria kiosk. Notifications reach you this way.',
    fields: { cpf: 'CPF', rg: 'RG', document: 'document', email: 'e-mail', phone: 'phone' },
  },
  'pt-BR': {
    arrivedSubject: 'Seu visitante {visitor} chegou',
    arrivedText: '{visitor} fez check-in em {time}.',
    reminderSubject: 'Lembrete: {visitor} é esperado(a) em {time}',
    reminderText: 'Seu convidado {visitor} é esperado(a) em {time}. Você será avisado(a) quando fizer o check-in.',
    forHost: 'Para {host}',
    approvalText: '{visitor} fez check-in em {time} e aguarda na recepção pela sua aprovação.',
    allowLabel: 'Liberar',
    denyLabel: 'Recusar',
    onMyWayLabel: 'Estou indo',
    escalationSubject: '{host} não respondeu sobre {visitor}',
    escalationText:
      '{visitor} fez check-in em {time} para ver {host}, que não abriu nem respondeu a mensagem em {minutes} minutos. Por favor, atenda o visitante.',
    blockedSubject: 'Visitante bloqueado na recepção: {visitor}',
    blockedText: '{visitor} tentou fazer check-in em {time} e a entrada não foi liberada. {note}',
    blockedInsideText: '{visitor} fez check-in em {time} num totem sem conexão e pode estar nas dependências. {note}',
    blockedNote: 'Consta na lista de bloqueio ({field}): {reason}',
    heldSubject: 'Visitante retido na recepção: {visitor}',
    heldText: '{visitor} fez check-in em {time} e aguarda na recepção pela sua decisão. {note}',
    heldNote: 'Possível correspondência na lista de bloqueio (só o nome): {reason}',
    visitSubject: 'Uma mensagem sobre seu visitante',
    deliverySubject: 'Chegou uma entrega para você',
    noReason: 'não informado',
    testSubject: 'Portaria: mensagem de teste',
    testText: 'Este é um teste da recepção do seu totem Portaria. As notificações chegam a você por este caminho.',
    fields: { cpf: 'CPF', rg: 'RG', document: 'documento', email: 'e-mail', phone: 'telefone' },
  },
  de: {
    arrivedSubject: 'Ihr Besuch {visitor} ist angekommen',
    arrivedText: '{visitor} hat sich am {time} angemeldet.',
    reminderSubject: 'Erinnerung: {visitor} wird am {time} erwartet',
    reminderText: 'Ihr Gast {visitor} wird am {time} erwartet. Sie erfahren es, sobald er oder sie sich anmeldet.',
    forHost: 'Für {host}',
    approvalText: '{visitor} hat sich am {time} angemeldet und wartet am Empfang auf Ihre Freigabe.',
    allowLabel: 'Einlassen',
    denyLabel: 'Ablehnen',
    onMyWayLabel: 'Ich komme',
    escalationSubject: '{host} hat zu {visitor} nicht geantwortet',
    escalationText:
      '{visitor} hat sich am {time} für {host} angemeldet; die Nachricht wurde in {minutes} Minuten weder geöffnet noch beantwortet. Bitte kümmern Sie sich um den Besuch.',
    blockedSubject: 'Gesperrte Person am Empfang: {visitor}',
    blockedText: '{visitor} wollte sich am {time} anmelden; der Zutritt wurde nicht gewährt. {note}',
    blockedInsideText:
      '{visitor} hat sich am {time} an einem Kiosk ohne Verbindung angemeldet und ist womöglich im Haus. {note}',
    blockedNote: 'Auf der Sperrliste ({field}): {reason}',
    heldSubject: 'Person am Empfang angehalten: {visitor}',
    heldText: '{visitor} hat sich am {time} angemeldet und wartet am Empfang auf Ihre Entscheidung. {note}',
    heldNote: 'Möglicher Treffer auf der Sperrliste (nur der Name): {reason}',
    visitSubject: 'Eine Nachricht zu Ihrem Besuch',
    deliverySubject: 'Eine Lieferung ist für Sie angekommen',
    noReason: 'nicht angegeben',
    testSubject: 'Portaria: Testnachricht',
    testText: 'Dies ist ein Test vom Empfang Ihres Portaria-Kiosks. Benachrichtigungen erreichen Sie auf diesem Weg.',
    fields: { cpf: 'CPF', rg: 'RG', document: 'Ausweis', email: 'E-Mail', phone: 'Telefon' },
  },
  'zh-Hans': {
    arrivedSubject: '您的访客 {visitor} 已到达',
    arrivedText: '{visitor} 已于 {time} 登记到访。',
    reminderSubject: '提醒：{visitor} 预计于 {time} 到访',
    reminderText: '您的访客 {visitor} 预计于 {time} 到访。访客登记时您会收到通知。',
    forHost: '致 {host}',
    approvalText: '{visitor} 已于 {time} 登记，正在前台等待您的批准。',
    allowLabel: '允许',
    denyLabel: '拒绝',
    onMyWayLabel: '我这就来',
    escalationSubject: '{host} 尚未就 {visitor} 作出答复',
    escalationText: '{visitor} 于 {time} 登记拜访 {host}，但 {minutes} 分钟内消息未被打开或答复。请接待这位访客。',
    blockedSubject: '前台拦截的访客：{visitor}',
    blockedText: '{visitor} 于 {time} 尝试登记，未允许进入。{note}',
    blockedInsideText: '{visitor} 于 {time} 在离线的自助终端登记，可能已在场内。{note}',
    blockedNote: '与黑名单记录匹配（{field}）：{reason}',
    heldSubject: '前台暂留的访客：{visitor}',
    heldText: '{visitor} 于 {time} 登记，正在前台等待您的决定。{note}',
    heldNote: '可能与黑名单记录匹配（仅姓名）：{reason}',
    visitSubject: '关于您的访客的消息',
    deliverySubject: '您有一件快递已送达',
    noReason: '未说明',
    testSubject: 'Portaria：测试消息',
    testText: '这是来自您的 Portaria 自助终端前台的测试。通知将通过此方式送达您。',
    fields: { cpf: 'CPF', rg: 'RG', document: '证件', email: '电子邮件', phone: '电话' },
  },
};

/** The catalogue of a language; a language the service does not speak falls back to English. */
export const catalogueFor = (lang: string): Catalogue => catalogues[isLanguage(lang) ? lang : 'en'];

/** A person as messages name them: "Walter (Initech)", or the name alone. */
export const personLabel = (name: string | null, company: string | null): string =>
  company ? `${name ?? ''} (${company})` : (name ?? '');

/** Fills `{name}` placeholders. */
export const fill = (template: string, values: Readonly<Record<string, string>>): string =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** A date and time as people of that language write it, in the company's zone. */
export function localTime(epochMs: number, lang: string, timeZone: string): string {
  return new Intl.DateTimeFormat(isLanguage(lang) ? lang : 'en', {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone,
  }).format(epochMs);
}

/** The visit's status note for a visitor the blocklist stopped, or held when only the name matched. */
export function blockedNote(lang: string, field: BlocklistField | 'name', reason: string | null): string {
  const words = catalogueFor(lang);
  const because = reason || words.noReason;
  if (field === 'name') return fill(words.heldNote, { reason: because });
  return fill(words.blockedNote, { field: words.fields[field], reason: because });
}
