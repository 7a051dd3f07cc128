import type { PageLang } from '../public/words.ts';

/** What the register page says where it shows no form: the service writes these pages itself, no script needed. */
interface RegisterWords {
  title: string;
  early: (opensAt: string) => string;
  closed: string;
  canceled: string;
  arrived: string;
  hubOnly: string;
}

const words: Record<PageLang, RegisterWords> = {
  en: {
    title: 'Register for your visit',
    early: (opensAt) => `Registration opens on ${opensAt}. Come back then with the same link.`,
    closed: 'Registration for this visit has closed. The kiosk will ask what it needs when you arrive.',
    canceled: 'This invitation was canceled. Ask your host if you should still come.',
    arrived: 'You have already checked in for this visit. Welcome!',
    hubOnly:
      'Registration is not taken at this address. Open the link of your invitation e-mail as it was sent to you.',
  },
  'pt-BR': {
    title: 'Cadastre-se para a sua visita',
    early: (opensAt) => `O cadastro abre em ${opensAt}. Volte então com o mesmo link.`,
    closed: 'O cadastro para esta visita foi encerrado. O totem perguntará o que for preciso quando você chegar.',
    canceled: 'Este convite foi cancelado. Pergunte ao seu anfitrião se ainda deve vir.',
    arrived: 'Você já fez o check-in desta visita. Seja bem-vindo!',
    hubOnly: 'O cadastro não é feito neste endereço. Abra o link do e-mail do convite tal como foi enviado.',
  },
  de: {
    title: 'Für Ihren Besuch registrieren',
    early: (opensAt) => `Die Registrierung öffnet am ${opensAt}. Kommen Sie dann mit demselben Link wieder.`,
    closed:
      'Die Registrierung für diesen Besuch ist geschlossen. Das Terminal fragt bei Ihrer Ankunft, was es braucht.',
    canceled: 'Diese Einladung wurde storniert. Fragen Sie Ihren Gastgeber, ob Sie trotzdem kommen sollen.',
    arrived: 'Sie haben für diesen Besuch bereits eingecheckt. Willkommen!',
    hubOnly:
      'Unter dieser Adresse wird keine Registrierung angenommen. Öffnen Sie den Link aus Ihrer Einladungs-E-Mail so, wie er gesendet wurde.',
  },
  'zh-Hans': {
    title: '为您的来访登记',
    early: (opensAt) => `登记将于 ${opensAt} 开放。届时请用同一链接再来。`,
    closed: '此次来访的登记已截止。您到达时，自助终端会询问所需信息。',
    canceled: '此邀请已取消。请询问您的接待人是否仍需前来。',
    arrived: '您已为此次来访签到。欢迎！',
    hubOnly: '此地址不接受登记。请按邀请邮件发送的原样打开其中的链接。',
  },
};

export const registerWords = (lang: PageLang): RegisterWords => words[lang];
