import type { PageLang } from '../public/words.ts';
import { isLanguage } from '../rules/lang.ts';

/** The words of the pass page and of the message that links to it; `{name}` placeholders are filled in. */
interface PassWords {
  title: string;
  forName: string;
  qrLabel: string;
  showAtGate: string;
  untilCheckout: string;
  renews: string;
  validUntil: string;
  upcoming: string;
  waiting: string;
  pending: string;
  ended: string;
  unavailable: string;
  mailSubject: string;
  mailGreeting: string;
  mailIntro: string;
  mailButton: string;
  smsText: string;
}

const words: Record<PageLang, PassWords> = {
  en: {
    title: 'Your gate pass',
    forName: 'For {name}',
    qrLabel: 'Gate code',
    showAtGate: 'Hold this code to the reader at the turnstile.',
    untilCheckout: 'It works until you check out.',
    renews: 'The code changes every few seconds; this page shows the new one by itself.',
    validUntil: 'This code is valid until {time}.',
    upcoming: 'Your gate code will appear here on {date}.',
    waiting: 'Your gate code will appear here once your visit is confirmed. This page updates by itself.',
    pending: 'Your pass is on its way. This page updates by itself.',
    ended: 'This pass has ended.',
    unavailable: 'Your gate code cannot be shown now. Please ask the reception.',
    mailSubject: 'Your gate pass at {company}',
    mailGreeting: 'Hello {name},',
    mailIntro:
      'you are checked in at {company}. Open your gate pass on your phone and hold the code it shows to the reader at the turnstile; it works until you check out.',
    mailButton: 'Open your gate pass',
    smsText: '{company}: your gate pass, for the turnstile until you check out: {link}',
  },
  'pt-BR': {
    title: 'Seu passe de acesso',
    forName: 'Para {name}',
    qrLabel: 'Código de acesso',
    showAtGate: 'Aproxime este código do leitor da catraca.',
    untilCheckout: 'Ele vale até você fazer o check-out.',
    renews: 'O código muda a cada poucos segundos; esta página mostra o novo sozinha.',
    validUntil: 'Este código vale até {time}.',
    upcoming: 'Seu código de acesso aparecerá aqui em {date}.',
    waiting: 'Seu código de acesso aparecerá aqui quando sua visita for confirmada. Esta página se atualiza sozinha.',
    pending: 'Seu passe está a caminho. Esta página se atualiza sozinha.',
    ended: 'Este passe terminou.',
    unavailable: 'Não é possível mostrar seu código de acesso agora. Por favor, fale com a recepção.',
    mailSubject: 'Seu passe de acesso na {company}',
    mailGreeting: 'Olá, {name},',
    mailIntro:
      'seu check-in na {company} foi feito. Abra seu passe de acesso no celular e aproxime o código que ele mostra do leitor da catraca; ele vale até você fazer o check-out.',
    mailButton: 'Abrir meu passe de acesso',
    smsText: '{company}: seu passe para a catraca, válido até o check-out: {link}',
  },
  de: {
    title: 'Ihr Zutrittsausweis',
    forName: 'Für {name}',
    qrLabel: 'Zutrittscode',
    showAtGate: 'Halten Sie diesen Code an das Lesegerät am Drehkreuz.',
    untilCheckout: 'Er gilt, bis Sie sich abmelden.',
    renews: 'Der Code wechselt alle paar Sekunden; diese Seite zeigt den neuen von selbst.',
    validUntil: 'Dieser Code gilt bis {time}.',
    upcoming: 'Ihr Zutrittscode erscheint hier am {date}.',
    waiting:
      'Ihr Zutrittscode erscheint hier, sobald Ihr Besuch bestätigt ist. Diese Seite aktualisiert sich von selbst.',
    pending: 'Ihr Ausweis ist unterwegs. Diese Seite aktualisiert sich von selbst.',
    ended: 'Dieser Ausweis ist abgelaufen.',
    unavailable: 'Ihr Zutrittscode kann gerade nicht angezeigt werden. Bitte wenden Sie sich an den Empfang.',
    mailSubject: 'Ihr Zutrittsausweis bei {company}',
    mailGreeting: 'Hallo {name},',
    mailIntro:
      'Sie sind bei {company} angemeldet. Öffnen Sie Ihren Zutrittsausweis auf Ihrem Telefon und halten Sie den angezeigten Code an das Lesegerät am Drehkreuz; er gilt, bis Sie sich abmelden.',
    mailButton: 'Zutrittsausweis öffnen',
    smsText: '{company}: Ihr Zutrittsausweis für das Drehkreuz, gültig bis zur Abmeldung: {link}',
  },
  'zh-Hans': {
    title: '您的门禁通行证',
    forName: '{name} 的通行证',
    qrLabel: '门禁码',
    showAtGate: '请将此码对准闸机的读卡器。',
    untilCheckout: '在您签出之前一直有效。',
    renews: '此码每隔几秒更换一次，本页面会自动显示新码。',
    validUntil: '此码有效期至 {time}。',
    upcoming: '您的门禁码将于 {date} 在此显示。',
    waiting: '您的访问确认后，门禁码将在此显示。本页面会自动更新。',
    pending: '您的通行证正在准备中。本页面会自动更新。',
    ended: '此通行证已失效。',
    unavailable: '目前无法显示您的门禁码。请联系前台。',
    mailSubject: '您在 {company} 的门禁通行证',
    mailGreeting: '{name}，您好：',
    mailIntro:
      '您已在 {company} 完成登记。请在手机上打开您的门禁通行证，并将显示的码对准闸机的读卡器；在您签出之前一直有效。',
    mailButton: '打开门禁通行证',
    smsText: '{company}：您的闸机通行证，签出前有效：{link}',
  },
};

/** The pass's words in a language; one the service does not speak falls back to English. */
export const passWords = (lang: string): PassWords => words[isLanguage(lang) ? lang : 'en'];
