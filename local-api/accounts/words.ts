import { isLanguage, type Language } from '../rules/lang.ts';

/** What an account e-mail says, per purpose, in each of the service's languages; `{name}` placeholders are filled in. */
export interface AccountMailWords {
  greeting: string;
  welcomeSubject: string;
  welcomeIntro: string;
  welcomeButton: string;
  welcomeHint: string;
  /** Without a public address: no link can reach the person, the administrator gives it. */
  welcomeNoLink: string;
  resetSubject: string;
  resetIntro: string;
  resetButton: string;
  resetHint: string;
  linkSubject: string;
  linkIntro: string;
  linkButton: string;
  linkHint: string;
  notYou: string;
}

const words: Record<Language, AccountMailWords> = {
  en: {
    greeting: 'Hello {name},',
    welcomeSubject: 'Your account at {company}',
    welcomeIntro: '{company} made you an account in its visitor console: your guests, their visits and approvals.',
    welcomeButton: 'Choose your password',
    welcomeHint: 'This link works once, for 7 days.',
    welcomeNoLink: 'Ask your administrator for the link that lets you choose your password.',
    resetSubject: 'Reset your password at {company}',
    resetIntro: 'Someone asked to reset the password of your account at {company}.',
    resetButton: 'Choose a new password',
    resetHint: 'This link works once, for 1 hour. Your other devices will be signed out.',
    linkSubject: 'Sign in to {company}',
    linkIntro: 'Use this link to sign in to the visitor console of {company}.',
    linkButton: 'Sign in',
    linkHint: 'This link works once, for 15 minutes.',
    notYou: 'If you did not ask for this, ignore this message: nothing changes.',
  },
  'pt-BR': {
    greeting: 'Olá, {name},',
    welcomeSubject: 'Sua conta em {company}',
    welcomeIntro:
      '{company} criou uma conta para você no console de visitantes: seus convidados, visitas e aprovações.',
    welcomeButton: 'Escolher sua senha',
    welcomeHint: 'Este link funciona uma vez, por 7 dias.',
    welcomeNoLink: 'Peça ao administrador o link para escolher sua senha.',
    resetSubject: 'Redefinir sua senha em {company}',
    resetIntro: 'Alguém pediu para redefinir a senha da sua conta em {company}.',
    resetButton: 'Escolher uma nova senha',
    resetHint: 'Este link funciona uma vez, por 1 hora. Seus outros dispositivos serão desconectados.',
    linkSubject: 'Entrar em {company}',
    linkIntro: 'Use este link para entrar no console de visitantes de {company}.',
    linkButton: 'Entrar',
    linkHint: 'Este link funciona uma vez, por 15 minutos.',
    notYou: 'Se você não pediu isto, ignore esta mensagem: nada muda.',
  },
  de: {
    greeting: 'Guten Tag {name},',
    welcomeSubject: 'Ihr Konto bei {company}',
    welcomeIntro:
      '{company} hat Ihnen ein Konto in der Besucherkonsole eingerichtet: Ihre Gäste, ihre Besuche und Freigaben.',
    welcomeButton: 'Passwort wählen',
    welcomeHint: 'Dieser Link gilt einmal, 7 Tage lang.',
    welcomeNoLink: 'Bitten Sie Ihre Administration um den Link, mit dem Sie Ihr Passwort wählen.',
    resetSubject: 'Passwort bei {company} zurücksetzen',
    resetIntro: 'Jemand hat verlangt, das Passwort Ihres Kontos bei {company} zurückzusetzen.',
    resetButton: 'Neues Passwort wählen',
    resetHint: 'Dieser Link gilt einmal, 1 Stunde lang. Ihre anderen Geräte werden abgemeldet.',
    linkSubject: 'Bei {company} anmelden',
    linkIntro: 'Mit diesem Link melden Sie sich in der Besucherkonsole von {company} an.',
    linkButton: 'Anmelden',
    linkHint: 'Dieser Link gilt einmal, 15 Minuten lang.',
    notYou: 'Wenn Sie das nicht verlangt haben, ignorieren Sie diese Nachricht: es ändert sich nichts.',
  },
  'zh-Hans': {
    greeting: '{name}，您好：',
    welcomeSubject: '您在 {company} 的账户',
    welcomeIntro: '{company} 为您在访客控制台中创建了账户：您的访客、来访和审批。',
    welcomeButton: '设置密码',
    welcomeHint: '此链接只能使用一次，7 天内有效。',
    welcomeNoLink: '请向管理员索取设置密码的链接。',
    resetSubject: '重置您在 {company} 的密码',
    resetIntro: '有人请求重置您在 {company} 的账户密码。',
    resetButton: '设置新密码',
    resetHint: '此链接只能使用一次，1 小时内有效。您的其他设备将被登出。',
    linkSubject: '登录 {company}',
    linkIntro: '使用此链接登录 {company} 的访客控制台。',
    linkButton: '登录',
    linkHint: '此链接只能使用一次，15 分钟内有效。',
    notYou: '如果这不是您的请求，请忽略此邮件：不会有任何改变。',
  },
};

/** The words of a language; one the service does not speak falls back to English. */
export const accountMailWords = (lang: string): AccountMailWords => words[isLanguage(lang) ? lang : 'en'];
