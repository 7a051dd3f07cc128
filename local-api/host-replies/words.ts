import type { PageLang } from '../public/words.ts';

/** The words of the page a host's message links to (`/p/decide/<token>`), in the language the browser asks for. */
interface ReplyWords {
  askTitle: string;
  askText: string;
  allow: string;
  deny: string;
  arrivedTitle: string;
  arrivedText: string;
  onMyWay: string;
  allowedDone: string;
  deniedDone: string;
  onMyWayDone: string;
  alreadyAllowed: string;
  alreadyDenied: string;
  theReception: string;
  receptionDecides: string;
  notHereTitle: string;
  notHereText: string;
  tryAgain: string;
  pictureAlt: string;
}

const words: Record<PageLang, ReplyWords> = {
  en: {
    askTitle: 'Your visitor is waiting for you',
    askText: 'Checked in at {time} and waiting at the reception for your answer.',
    allow: 'Allow',
    deny: 'Deny',
    arrivedTitle: 'Your visitor has arrived',
    arrivedText: 'Checked in at {time}.',
    onMyWay: "I'm on my way",
    allowedDone: 'You allowed {name} in. The kiosk tells them now.',
    deniedDone: 'You turned {name} away. The kiosk asks them to speak to the reception.',
    onMyWayDone: 'Thank you: the reception knows you have seen it.',
    alreadyAllowed: '{name} was already allowed in, by {who}.',
    alreadyDenied: '{name} was already turned away, by {who}.',
    theReception: 'the reception',
    receptionDecides: 'The reception decides about {name}: please speak to them.',
    notHereTitle: 'Not here yet',
    notHereText: 'This visit has not reached this server yet. Try again in a moment.',
    tryAgain: 'Try again',
    pictureAlt: 'Picture of {name}',
  },
  'pt-BR': {
    askTitle: 'Seu visitante está esperando por você',
    askText: 'Fez check-in às {time} e aguarda sua resposta na recepção.',
    allow: 'Liberar',
    deny: 'Recusar',
    arrivedTitle: 'Seu visitante chegou',
    arrivedText: 'Fez check-in às {time}.',
    onMyWay: 'Estou indo',
    allowedDone: 'Você liberou a entrada de {name}. O totem avisa agora.',
    deniedDone: 'Você recusou a entrada de {name}. O totem pede que fale com a recepção.',
    onMyWayDone: 'Obrigado: a recepção sabe que você viu a mensagem.',
    alreadyAllowed: 'A entrada de {name} já foi liberada, por {who}.',
    alreadyDenied: 'A entrada de {name} já foi recusada, por {who}.',
    theReception: 'a recepção',
    receptionDecides: 'A recepção decide sobre {name}: fale com ela, por favor.',
    notHereTitle: 'Ainda não chegou',
    notHereText: 'Esta visita ainda não chegou a este servidor. Tente de novo em instantes.',
    tryAgain: 'Tentar de novo',
    pictureAlt: 'Foto de {name}',
  },
  de: {
    askTitle: 'Ihr Besuch wartet auf Sie',
    askText: 'Um {time} angemeldet; wartet am Empfang auf Ihre Antwort.',
    allow: 'Einlassen',
    deny: 'Ablehnen',
    arrivedTitle: 'Ihr Besuch ist angekommen',
    arrivedText: 'Um {time} angemeldet.',
    onMyWay: 'Ich komme',
    allowedDone: 'Sie haben {name} eingelassen. Der Kiosk sagt es jetzt.',
    deniedDone: 'Sie haben {name} abgelehnt. Der Kiosk bittet, sich an den Empfang zu wenden.',
    onMyWayDone: 'Danke: Der Empfang weiß, dass Sie es gesehen haben.',
    alreadyAllowed: '{name} wurde bereits eingelassen, von {who}.',
    alreadyDenied: '{name} wurde bereits abgelehnt, von {who}.',
    theReception: 'dem Empfang',
    receptionDecides: 'Über {name} entscheidet der Empfang: Bitte wenden Sie sich dorthin.',
    notHereTitle: 'Noch nicht da',
    notHereText: 'Dieser Besuch ist noch nicht auf diesem Server angekommen. Versuchen Sie es gleich noch einmal.',
    tryAgain: 'Erneut versuchen',
    pictureAlt: 'Foto von {name}',
  },
  'zh-Hans': {
    askTitle: '您的访客正在等您',
    askText: '已于 {time} 登记，正在前台等待您的答复。',
    allow: '允许',
    deny: '拒绝',
    arrivedTitle: '您的访客已到达',
    arrivedText: '已于 {time} 登记。',
    onMyWay: '我这就来',
    allowedDone: '您已允许 {name} 进入。自助终端正在告知对方。',
    deniedDone: '您已拒绝 {name}。自助终端会请对方联系前台。',
    onMyWayDone: '谢谢：前台已知道您看到了消息。',
    alreadyAllowed: '{name} 已被 {who} 允许进入。',
    alreadyDenied: '{name} 已被 {who} 拒绝。',
    theReception: '前台',
    receptionDecides: '由前台决定 {name} 的来访：请与前台联系。',
    notHereTitle: '尚未到达',
    notHereText: '此访问尚未同步到本服务器。请稍后再试。',
    tryAgain: '重试',
    pictureAlt: '{name} 的照片',
  },
};

export const replyWords = (lang: PageLang): ReplyWords => words[lang];
