import type { Language } from '../rules/lang.ts';

/** The message that carries a returning visitor's one-time code, in the visitor's language. */
interface CodeWords {
  subject: string;
  text: string;
}

const words: Record<Language, CodeWords> = {
  en: {
    subject: 'Your check-in code for {company}: {code}',
    text:
      'Your code to check in at {company} is {code}. It expires in 10 minutes.\n\n' +
      'If you did not ask for it at the kiosk, ignore this message.',
  },
  'pt-BR': {
    subject: 'Seu código de entrada na {company}: {code}',
    text:
      'Seu código para fazer o check-in na {company} é {code}. Ele expira em 10 minutos.\n\n' +
      'Se você não o pediu no totem, ignore esta mensagem.',
  },
  de: {
    subject: 'Ihr Anmeldecode für {company}: {code}',
    text:
      'Ihr Code für die Anmeldung bei {company} lautet {code}. Er läuft in 10 Minuten ab.\n\n' +
      'Wenn Sie ihn nicht am Empfangsterminal angefordert haben, ignorieren Sie diese Nachricht.',
  },
  'zh-Hans': {
    subject: '您在 {company} 的签到验证码：{code}',
    text: '您在 {company} 签到的验证码是 {code}，10 分钟内有效。\n\n如果您没有在自助终端上请求验证码，请忽略此消息。',
  },
};

/** The code's message in `lang`, with the company's name and the code. */
export function codeMessage(lang: Language, company: string, code: string): CodeWords {
  const fill = (text: string) => text.replaceAll('{company}', company).replaceAll('{code}', code);
  const chosen = words[lang];
  return { subject: fill(chosen.subject), text: fill(chosen.text) };
}
