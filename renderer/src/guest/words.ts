import type { Lang } from '../i18n/index.ts';

/**
 * The register page's own words (docs/kiosk.md, "Pre-registration"). The steps it shares with the kiosk speak the
 * kiosk's words (i18n/); these stay out of the kiosk's bundle.
 */
interface GuestWords {
  title: string;
  loading: string;
  intro: (names: { firstName: string; host: string | null; when: string }) => string;
  introNoHost: (names: { firstName: string; when: string }) => string;
  start: string;
  registeredTitle: string;
  registered: (names: { firstName: string; until: string }) => string;
  change: string;
  fields: string;
  questionnaire: string;
  picture: string;
  agreement: string;
  send: string;
  sending: string;
  keepAgreement: string;
  fromFile: string;
  fileProblem: string;
  errors: Partial<Record<string, string>>;
}

const words: Record<Lang, GuestWords> = {
  en: {
    title: 'Register for your visit',
    loading: 'Loading your invitation…',
    intro: ({ firstName, host, when }) =>
      `Hello ${firstName}! ${host} expects you on ${when}. Answer a few questions, sign the agreement and add a picture now: at the kiosk, showing your invitation's QR code will be all.`,
    introNoHost: ({ firstName, when }) =>
      `Hello ${firstName}! You are expected on ${when}. Answer a few questions, sign the agreement and add a picture now: at the kiosk, showing your invitation's QR code will be all.`,
    start: 'Start',
    registeredTitle: 'You are registered',
    registered: ({ firstName, until }) =>
      `Thank you, ${firstName}. At the kiosk, show the QR code of your invitation: you will be checked in with one scan. You can change your registration until ${until}.`,
    change: 'Change my registration',
    fields: 'A few details',
    questionnaire: 'Questionnaire',
    picture: 'Your picture',
    agreement: 'Agreement',
    send: 'Send my registration',
    sending: 'Sending your registration…',
    keepAgreement: 'You signed the agreement already; it stays signed.',
    fromFile: 'Or choose a picture from this device',
    fileProblem: 'This file is not a picture this page can read. Choose a JPEG or PNG picture.',
    errors: {
      REGISTRATION_NOT_OPEN: 'Registration has not opened yet. Open the link again later.',
      REGISTRATION_CLOSED: 'Registration for this visit has closed. The kiosk will ask what it needs when you arrive.',
      INVITEE_CANCELED: 'This invitation was canceled.',
      INVITEE_ARRIVED: 'You have already checked in for this visit.',
      MISSING_PICTURE: 'A picture is required. Take one or choose one from this device.',
      MISSING_NDA: 'Please sign the agreement.',
      INVALID_CUSTOM_FIELD: 'An answer was not accepted. Please check your answers.',
      INVALID_PICTURE: 'The picture could not be used. Please take another one.',
      LINK_EXPIRED: 'This link has expired. Ask your host for a new invitation.',
      LINK_INVALID: 'This link is not valid. Open it again from your invitation e-mail.',
      SERVICE_UNREACHABLE: 'The page cannot reach the server right now. Check your connection and try again.',
    },
  },
  'pt-BR': {
    title: 'Cadastre-se para a sua visita',
    loading: 'Carregando o seu convite…',
    intro: ({ firstName, host, when }) =>
      `Olá, ${firstName}! ${host} espera você em ${when}. Responda a algumas perguntas, assine o termo e adicione uma foto agora: no totem, bastará mostrar o QR code do seu convite.`,
    introNoHost: ({ firstName, when }) =>
      `Olá, ${firstName}! Você é esperado em ${when}. Responda a algumas perguntas, assine o termo e adicione uma foto agora: no totem, bastará mostrar o QR code do seu convite.`,
    start: 'Começar',
    registeredTitle: 'Cadastro feito',
    registered: ({ firstName, until }) =>
      `Obrigado, ${firstName}. No totem, mostre o QR code do seu convite: o check-in será feito com uma leitura. Você pode alterar o cadastro até ${until}.`,
    change: 'Alterar meu cadastro',
    fields: 'Alguns dados',
    questionnaire: 'Questionário',
    picture: 'Sua foto',
    agreement: 'Termo',
    send: 'Enviar meu cadastro',
    sending: 'Enviando o seu cadastro…',
    keepAgreement: 'Você já assinou o termo; a assinatura continua válida.',
    fromFile: 'Ou escolha uma foto deste aparelho',
    fileProblem: 'Este arquivo não é uma foto que esta página consiga ler. Escolha uma foto JPEG ou PNG.',
    errors: {
      REGISTRATION_NOT_OPEN: 'O cadastro ainda não abriu. Abra o link novamente mais tarde.',
      REGISTRATION_CLOSED:
        'O cadastro para esta visita foi encerrado. O totem perguntará o que for preciso quando você chegar.',
      INVITEE_CANCELED: 'Este convite foi cancelado.',
      INVITEE_ARRIVED: 'Você já fez o check-in desta visita.',
      MISSING_PICTURE: 'A foto é obrigatória. Tire uma ou escolha uma deste aparelho.',
      MISSING_NDA: 'Por favor, assine o termo.',
      INVALID_CUSTOM_FIELD: 'Uma resposta não foi aceita. Confira as suas respostas.',
      INVALID_PICTURE: 'Não foi possível usar a foto. Tire outra, por favor.',
      LINK_EXPIRED: 'Este link expirou. Peça um novo convite ao seu anfitrião.',
      LINK_INVALID: 'Este link não é válido. Abra-o novamente a partir do e-mail do convite.',
      SERVICE_UNREACHABLE: 'A página não consegue falar com o servidor agora. Verifique a sua conexão e tente de novo.',
    },
  },
  de: {
    title: 'Für Ihren Besuch registrieren',
    loading: 'Ihre Einladung wird geladen…',
    intro: ({ firstName, host, when }) =>
      `Hallo ${firstName}! ${host} erwartet Sie am ${when}. Beantworten Sie jetzt ein paar Fragen, unterschreiben Sie die Vereinbarung und fügen Sie ein Foto hinzu: Am Terminal genügt dann der QR-Code Ihrer Einladung.`,
    introNoHost: ({ firstName, when }) =>
      `Hallo ${firstName}! Sie werden am ${when} erwartet. Beantworten Sie jetzt ein paar Fragen, unterschreiben Sie die Vereinbarung und fügen Sie ein Foto hinzu: Am Terminal genügt dann der QR-Code Ihrer Einladung.`,
    start: 'Beginnen',
    registeredTitle: 'Sie sind registriert',
    registered: ({ firstName, until }) =>
      `Danke, ${firstName}. Zeigen Sie am Terminal den QR-Code Ihrer Einladung: Ein Scan genügt zum Einchecken. Sie können Ihre Registrierung bis ${until} ändern.`,
    change: 'Registrierung ändern',
    fields: 'Einige Angaben',
    questionnaire: 'Fragebogen',
    picture: 'Ihr Foto',
    agreement: 'Vereinbarung',
    send: 'Registrierung senden',
    sending: 'Ihre Registrierung wird gesendet…',
    keepAgreement: 'Sie haben die Vereinbarung bereits unterschrieben; die Unterschrift bleibt gültig.',
    fromFile: 'Oder ein Foto von diesem Gerät wählen',
    fileProblem: 'Diese Datei ist kein Foto, das diese Seite lesen kann. Wählen Sie ein JPEG- oder PNG-Foto.',
    errors: {
      REGISTRATION_NOT_OPEN: 'Die Registrierung ist noch nicht geöffnet. Öffnen Sie den Link später erneut.',
      REGISTRATION_CLOSED:
        'Die Registrierung für diesen Besuch ist geschlossen. Das Terminal fragt bei Ihrer Ankunft, was es braucht.',
      INVITEE_CANCELED: 'Diese Einladung wurde storniert.',
      INVITEE_ARRIVED: 'Sie haben für diesen Besuch bereits eingecheckt.',
      MISSING_PICTURE: 'Ein Foto ist erforderlich. Nehmen Sie eines auf oder wählen Sie eines von diesem Gerät.',
      MISSING_NDA: 'Bitte unterschreiben Sie die Vereinbarung.',
      INVALID_CUSTOM_FIELD: 'Eine Antwort wurde nicht angenommen. Bitte prüfen Sie Ihre Antworten.',
      INVALID_PICTURE: 'Das Foto konnte nicht verwendet werden. Bitte nehmen Sie ein neues auf.',
      LINK_EXPIRED: 'Dieser Link ist abgelaufen. Bitten Sie Ihren Gastgeber um eine neue Einladung.',
      LINK_INVALID: 'Dieser Link ist ungültig. Öffnen Sie ihn erneut aus Ihrer Einladungs-E-Mail.',
      SERVICE_UNREACHABLE:
        'Die Seite erreicht den Server gerade nicht. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    },
  },
  'zh-Hans': {
    title: '为您的来访登记',
    loading: '正在加载您的邀请…',
    intro: ({ firstName, host, when }) =>
      `${firstName}，您好！${host} 期待您于 ${when} 来访。现在回答几个问题、签署协议并添加照片：到自助终端时，只需出示邀请中的二维码。`,
    introNoHost: ({ firstName, when }) =>
      `${firstName}，您好！您预约于 ${when} 来访。现在回答几个问题、签署协议并添加照片：到自助终端时，只需出示邀请中的二维码。`,
    start: '开始',
    registeredTitle: '登记完成',
    registered: ({ firstName, until }) =>
      `谢谢，${firstName}。在自助终端出示邀请中的二维码，扫描一次即可签到。在 ${until} 之前您都可以修改登记。`,
    change: '修改我的登记',
    fields: '几项信息',
    questionnaire: '问卷',
    picture: '您的照片',
    agreement: '协议',
    send: '提交登记',
    sending: '正在提交您的登记…',
    keepAgreement: '您已签署协议，签名继续有效。',
    fromFile: '或从此设备选择一张照片',
    fileProblem: '此文件不是本页可读取的照片。请选择 JPEG 或 PNG 照片。',
    errors: {
      REGISTRATION_NOT_OPEN: '登记尚未开放。请稍后再打开此链接。',
      REGISTRATION_CLOSED: '此次来访的登记已截止。您到达时，自助终端会询问所需信息。',
      INVITEE_CANCELED: '此邀请已取消。',
      INVITEE_ARRIVED: '您已为此次来访签到。',
      MISSING_PICTURE: '需要一张照片。请拍一张或从此设备选择一张。',
      MISSING_NDA: '请签署协议。',
      INVALID_CUSTOM_FIELD: '有一项回答未被接受。请检查您的回答。',
      INVALID_PICTURE: '无法使用这张照片。请重新拍一张。',
      LINK_EXPIRED: '此链接已过期。请向接待人索取新的邀请。',
      LINK_INVALID: '此链接无效。请从邀请邮件中重新打开。',
      SERVICE_UNREACHABLE: '页面暂时无法连接服务器。请检查网络后重试。',
    },
  },
};

export const guestWords = (lang: Lang): GuestWords => words[lang];
