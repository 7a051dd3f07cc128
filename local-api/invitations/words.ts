import { isLanguage, type Language } from '../rules/lang.ts';

/** What an invitation e-mail says, in each of the service's languages; `{name}` placeholders are filled in. */
export interface InvitationWords {
  inviteSubject: string;
  updateSubject: string;
  cancelSubject: string;
  greeting: string;
  inviteIntro: string;
  updateIntro: string;
  cancelIntro: string;
  when: string;
  where: string;
  openMap: string;
  askFor: string;
  hostMessage: string;
  codeTitle: string;
  codeHint: string;
  qrAlt: string;
  register: string;
  registerHint: string;
  pass: string;
  passHint: string;
  atTheKiosk: string;
  calendarSummary: string;
}

const words: Record<Language, InvitationWords> = {
  en: {
    inviteSubject: 'Invitation: your visit to {company} on {date}',
    updateSubject: 'Updated invitation: your visit to {company} on {date}',
    cancelSubject: 'Canceled: your visit to {company} on {date}',
    greeting: 'Hello {name},',
    inviteIntro: '{host} invites you to visit {company}.',
    updateIntro: 'Your visit to {company} has changed. These are the new details.',
    cancelIntro: 'Your visit to {company} on {when} has been canceled. Your code no longer opens the door.',
    when: 'When',
    where: 'Where',
    openMap: 'Open the map',
    askFor: 'Ask for',
    hostMessage: 'A message from {host}',
    codeTitle: 'Your invitation',
    codeHint: "Show this QR code to the kiosk's camera when you arrive, or type your code: {code}",
    qrAlt: 'QR code of your invitation',
    register: 'Register before your visit',
    registerHint: 'Answer the questions, sign and add your picture now: at the kiosk, one scan will do.',
    pass: 'Your gate pass',
    passHint: 'On the day, this page shows the code that opens the turnstile.',
    atTheKiosk: 'When you arrive, check in at the kiosk in the lobby.',
    calendarSummary: 'Visit to {company}',
  },
  'pt-BR': {
    inviteSubject: 'Convite: sua visita a {company} em {date}',
    updateSubject: 'Convite atualizado: sua visita a {company} em {date}',
    cancelSubject: 'Cancelada: sua visita a {company} em {date}',
    greeting: 'Olá, {name},',
    inviteIntro: '{host} convida você para uma visita a {company}.',
    updateIntro: 'Sua visita a {company} mudou. Estes são os novos detalhes.',
    cancelIntro: 'Sua visita a {company} em {when} foi cancelada. Seu código não abre mais a entrada.',
    when: 'Quando',
    where: 'Onde',
    openMap: 'Abrir o mapa',
    askFor: 'Procure por',
    hostMessage: 'Uma mensagem de {host}',
    codeTitle: 'Seu convite',
    codeHint: 'Ao chegar, mostre este QR code à câmera do totem, ou digite seu código: {code}',
    qrAlt: 'QR code do seu convite',
    register: 'Faça seu cadastro antes da visita',
    registerHint: 'Responda às perguntas, assine e envie sua foto agora: no totem, basta ler o código.',
    pass: 'Seu passe de acesso',
    passHint: 'No dia, esta página mostra o código que libera a catraca.',
    atTheKiosk: 'Ao chegar, faça o check-in no totem da recepção.',
    calendarSummary: 'Visita a {company}',
  },
  de: {
    inviteSubject: 'Einladung: Ihr Besuch bei {company} am {date}',
    updateSubject: 'Geänderte Einladung: Ihr Besuch bei {company} am {date}',
    cancelSubject: 'Abgesagt: Ihr Besuch bei {company} am {date}',
    greeting: 'Guten Tag {name},',
    inviteIntro: '{host} lädt Sie zu einem Besuch bei {company} ein.',
    updateIntro: 'Ihr Besuch bei {company} hat sich geändert. Hier die neuen Angaben.',
    cancelIntro: 'Ihr Besuch bei {company} am {when} wurde abgesagt. Ihr Code öffnet die Tür nicht mehr.',
    when: 'Wann',
    where: 'Wo',
    openMap: 'Karte öffnen',
    askFor: 'Fragen Sie nach',
    hostMessage: 'Eine Nachricht von {host}',
    codeTitle: 'Ihre Einladung',
    codeHint:
      'Zeigen Sie diesen QR-Code bei Ihrer Ankunft der Kamera des Kiosks, oder geben Sie Ihren Code ein: {code}',
    qrAlt: 'QR-Code Ihrer Einladung',
    register: 'Vor dem Besuch anmelden',
    registerHint:
      'Beantworten Sie die Fragen, unterschreiben Sie und fügen Sie Ihr Foto hinzu: am Kiosk genügt dann ein Scan.',
    pass: 'Ihr Zutrittsausweis',
    passHint: 'Am Besuchstag zeigt diese Seite den Code, der das Drehkreuz öffnet.',
    atTheKiosk: 'Melden Sie sich bei Ihrer Ankunft am Kiosk im Empfang an.',
    calendarSummary: 'Besuch bei {company}',
  },
  'zh-Hans': {
    inviteSubject: '邀请：您于 {date} 拜访 {company}',
    updateSubject: '邀请已更新：您于 {date} 拜访 {company}',
    cancelSubject: '已取消：您于 {date} 拜访 {company}',
    greeting: '{name}，您好：',
    inviteIntro: '{host} 邀请您拜访 {company}。',
    updateIntro: '您对 {company} 的拜访有变动，以下是新的信息。',
    cancelIntro: '您于 {when} 对 {company} 的拜访已取消，您的代码不再能开门。',
    when: '时间',
    where: '地点',
    openMap: '打开地图',
    askFor: '请找',
    hostMessage: '{host} 的留言',
    codeTitle: '您的邀请',
    codeHint: '到达时请将此二维码对准自助终端的摄像头，或输入您的代码：{code}',
    qrAlt: '您的邀请二维码',
    register: '访问前先登记',
    registerHint: '现在回答问题、签名并添加照片：到自助终端时扫一下即可。',
    pass: '您的通行证',
    passHint: '访问当天，此页面会显示打开闸机的代码。',
    atTheKiosk: '到达后，请在前台的自助终端登记。',
    calendarSummary: '拜访 {company}',
  },
};

/** The words of a language; one the service does not speak falls back to English. */
export const invitationWords = (lang: string): InvitationWords => words[isLanguage(lang) ? lang : 'en'];
