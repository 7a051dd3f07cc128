import type { i18n } from 'i18next';

/**
 * The words of the editors only an administrator's console shows (retention, API keys, the audit log), in the
 * i18next namespace `admin`: kept out of the kiosk's languages (renderer/src/i18n/), so the kiosk's page does not
 * carry them, and added by the page that shows these editors (`addAdminWords`).
 */
const en = {
  retention: {
    title: 'Keeping visitors’ data',
    intro:
      'Visits, their pictures and agreements, invitations and visitors’ records older than this are erased every day; the audit log keeps only who did what. Without a limit they stay until someone erases them.',
    forever: 'Keep visitors’ data until someone erases it',
    days: 'Days to keep visitors’ data',
    lastSweep: 'Last applied {{at}}.',
    neverSwept: 'Not applied yet.',
  },
  keys: {
    title: 'API keys',
    intro:
      'Keys let other systems use the API: each has a role and a label, and is shown once when it is made. Revoking a key stops it at its next request.',
    none: 'No API keys yet.',
    label: 'Label',
    roleTitle: 'Role',
    prefix: 'Begins with',
    created: 'Made',
    lastUsed: 'Last used',
    never: 'never',
    revoke: 'Revoke',
    confirmRevoke: 'Revoke now',
    revoked: '“{{label}}” is revoked.',
    revokedAt: 'Revoked {{at}}',
    create: 'New API key',
    createButton: 'Make the key',
    madeOnce: 'The key “{{label}}”: copy it now, it is not shown again.',
    theKey: 'The new key',
    role: {
      admin: 'Administrator',
      readonly: 'Read only',
      frontdesk: 'Front desk',
      kiosk: 'Kiosk',
      sync: 'Kiosk of a hub',
    },
    roleHint: {
      admin: 'Everything the company’s API offers, settings and keys included.',
      readonly: 'Reads the company’s records and the audit log; changes nothing and sees no secret.',
      kiosk: 'The kiosk’s own screen: checks visitors in, lists nobody.',
      sync: 'A kiosk that follows this service as its hub.',
    },
  },
  audit: {
    title: 'Audit log',
    intro: 'Everything staff, keys and the service did, and every read of personal data, newest first.',
    filter: 'Narrow the audit log',
    action: 'Action',
    actor: 'Who',
    everyone: 'Everyone',
    apply: 'Show',
    clear: 'Show all',
    seen: 'Actions on this page:',
    onlyAction: 'Show only {{action}}',
    onlyActor: 'Show only what {{actor}} did',
    none: 'Nothing recorded.',
    when: 'When',
    object: 'What',
    older: 'Older entries',
    owner: 'The device’s owner',
    system: 'The service',
    signedLink: 'A signed link',
  },
} as const;

/** The shape every language has: the same keys, any text. */
type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
export type AdminWords = typeof en;

const ptBR: Shape<AdminWords> = {
  retention: {
    title: 'Guarda dos dados dos visitantes',
    intro:
      'Visitas, suas fotos e termos, convites e cadastros de visitantes mais antigos que isto são apagados todos os dias; o registro de auditoria guarda apenas quem fez o quê. Sem limite, ficam até alguém apagá-los.',
    forever: 'Guardar os dados dos visitantes até alguém apagá-los',
    days: 'Dias para guardar os dados dos visitantes',
    lastSweep: 'Aplicado pela última vez em {{at}}.',
    neverSwept: 'Ainda não aplicado.',
  },
  keys: {
    title: 'Chaves de API',
    intro:
      'As chaves permitem que outros sistemas usem a API: cada uma tem uma função e um rótulo, e é mostrada uma única vez ao ser criada. Revogar uma chave a bloqueia na próxima requisição.',
    none: 'Nenhuma chave de API ainda.',
    label: 'Rótulo',
    roleTitle: 'Função',
    prefix: 'Começa com',
    created: 'Criada',
    lastUsed: 'Último uso',
    never: 'nunca',
    revoke: 'Revogar',
    confirmRevoke: 'Revogar agora',
    revoked: '“{{label}}” foi revogada.',
    revokedAt: 'Revogada em {{at}}',
    create: 'Nova chave de API',
    createButton: 'Criar a chave',
    madeOnce: 'A chave “{{label}}”: copie-a agora, ela não será mostrada de novo.',
    theKey: 'A nova chave',
    role: {
      admin: 'Administrador',
      readonly: 'Somente leitura',
      frontdesk: 'Recepção',
      kiosk: 'Totem',
      sync: 'Totem de um hub',
    },
    roleHint: {
      admin: 'Tudo o que a API da empresa oferece, incluindo configurações e chaves.',
      readonly: 'Lê os registros da empresa e o registro de auditoria; não altera nada e não vê segredos.',
      kiosk: 'A tela do próprio totem: faz o check-in de visitantes, não lista ninguém.',
      sync: 'Um totem que segue este serviço como seu hub.',
    },
  },
  audit: {
    title: 'Registro de auditoria',
    intro:
      'Tudo o que a equipe, as chaves e o serviço fizeram, e cada leitura de dados pessoais, do mais recente ao mais antigo.',
    filter: 'Filtrar o registro de auditoria',
    action: 'Ação',
    actor: 'Quem',
    everyone: 'Todos',
    apply: 'Mostrar',
    clear: 'Mostrar tudo',
    seen: 'Ações nesta página:',
    onlyAction: 'Mostrar apenas {{action}}',
    onlyActor: 'Mostrar apenas o que {{actor}} fez',
    none: 'Nada registrado.',
    when: 'Quando',
    object: 'O quê',
    older: 'Registros mais antigos',
    owner: 'O dono do dispositivo',
    system: 'O serviço',
    signedLink: 'Um link assinado',
  },
};

const de: Shape<AdminWords> = {
  retention: {
    title: 'Aufbewahrung der Besucherdaten',
    intro:
      'Besuche mit ihren Fotos und Vereinbarungen, Einladungen und Besucherdaten, die älter sind, werden täglich gelöscht; das Audit-Protokoll behält nur, wer was getan hat. Ohne Frist bleiben sie, bis jemand sie löscht.',
    forever: 'Besucherdaten behalten, bis jemand sie löscht',
    days: 'Tage, die Besucherdaten aufbewahrt werden',
    lastSweep: 'Zuletzt angewendet am {{at}}.',
    neverSwept: 'Noch nicht angewendet.',
  },
  keys: {
    title: 'API-Schlüssel',
    intro:
      'Mit Schlüsseln nutzen andere Systeme die API: Jeder hat eine Rolle und eine Bezeichnung und wird beim Erstellen einmal angezeigt. Ein widerrufener Schlüssel wird bei seiner nächsten Anfrage abgewiesen.',
    none: 'Noch keine API-Schlüssel.',
    label: 'Bezeichnung',
    roleTitle: 'Rolle',
    prefix: 'Beginnt mit',
    created: 'Erstellt',
    lastUsed: 'Zuletzt benutzt',
    never: 'nie',
    revoke: 'Widerrufen',
    confirmRevoke: 'Jetzt widerrufen',
    revoked: '„{{label}}“ ist widerrufen.',
    revokedAt: 'Widerrufen am {{at}}',
    create: 'Neuer API-Schlüssel',
    createButton: 'Schlüssel erstellen',
    madeOnce: 'Der Schlüssel „{{label}}“: Jetzt kopieren, er wird nicht noch einmal angezeigt.',
    theKey: 'Der neue Schlüssel',
    role: {
      admin: 'Administrator',
      readonly: 'Nur lesen',
      frontdesk: 'Empfang',
      kiosk: 'Kiosk',
      sync: 'Kiosk eines Hubs',
    },
    roleHint: {
      admin: 'Alles, was die API der Firma bietet, auch Einstellungen und Schlüssel.',
      readonly: 'Liest die Daten der Firma und das Audit-Protokoll; ändert nichts und sieht keine Geheimnisse.',
      kiosk: 'Der Bildschirm des Kiosks: meldet Besucher an, listet niemanden auf.',
      sync: 'Ein Kiosk, der diesem Dienst als seinem Hub folgt.',
    },
  },
  audit: {
    title: 'Audit-Protokoll',
    intro:
      'Alles, was Mitarbeitende, Schlüssel und der Dienst getan haben, und jedes Lesen personenbezogener Daten, das Neueste zuerst.',
    filter: 'Audit-Protokoll eingrenzen',
    action: 'Aktion',
    actor: 'Wer',
    everyone: 'Alle',
    apply: 'Anzeigen',
    clear: 'Alles anzeigen',
    seen: 'Aktionen auf dieser Seite:',
    onlyAction: 'Nur {{action}} anzeigen',
    onlyActor: 'Nur anzeigen, was {{actor}} getan hat',
    none: 'Nichts aufgezeichnet.',
    when: 'Wann',
    object: 'Was',
    older: 'Ältere Einträge',
    owner: 'Der Besitzer des Geräts',
    system: 'Der Dienst',
    signedLink: 'Ein signierter Link',
  },
};

const zhHans: Shape<AdminWords> = {
  retention: {
    title: '访客数据的保存',
    intro:
      '早于此期限的来访记录及其照片和协议、邀请和访客资料每天都会被删除；审计日志只保留谁做了什么。不设期限时，它们会一直保留，直到有人删除。',
    forever: '保留访客数据，直到有人删除',
    days: '访客数据保留天数',
    lastSweep: '上次执行于 {{at}}。',
    neverSwept: '尚未执行。',
  },
  keys: {
    title: 'API 密钥',
    intro: '密钥让其他系统使用 API：每个密钥都有角色和标签，只在创建时显示一次。撤销的密钥在下一次请求时即失效。',
    none: '还没有 API 密钥。',
    label: '标签',
    roleTitle: '角色',
    prefix: '开头为',
    created: '创建于',
    lastUsed: '最近使用',
    never: '从未',
    revoke: '撤销',
    confirmRevoke: '立即撤销',
    revoked: '“{{label}}”已撤销。',
    revokedAt: '撤销于 {{at}}',
    create: '新建 API 密钥',
    createButton: '创建密钥',
    madeOnce: '密钥“{{label}}”：请立即复制，它不会再次显示。',
    theKey: '新密钥',
    role: {
      admin: '管理员',
      readonly: '只读',
      frontdesk: '前台',
      kiosk: '自助终端',
      sync: '中心的自助终端',
    },
    roleHint: {
      admin: '公司 API 提供的一切，包括设置和密钥。',
      readonly: '读取公司的记录和审计日志；不做任何更改，看不到任何机密。',
      kiosk: '自助终端本身的屏幕：为访客签到，不列出任何人。',
      sync: '以本服务为中心的自助终端。',
    },
  },
  audit: {
    title: '审计日志',
    intro: '员工、密钥和服务所做的一切，以及每一次对个人数据的读取，最新的在前。',
    filter: '筛选审计日志',
    action: '操作',
    actor: '操作者',
    everyone: '所有人',
    apply: '显示',
    clear: '显示全部',
    seen: '本页中的操作：',
    onlyAction: '只显示 {{action}}',
    onlyActor: '只显示 {{actor}} 的操作',
    none: '没有记录。',
    when: '时间',
    object: '对象',
    older: '更早的记录',
    owner: '设备所有者',
    system: '服务',
    signedLink: '签名链接',
  },
};

const adminWords = { en, 'pt-BR': ptBR, de, 'zh-Hans': zhHans };

/** Adds the `admin` namespace's words to an i18next set up with the kiosk's (`initI18n`). */
export function addAdminWords(instance: i18n): void {
  for (const [lang, messages] of Object.entries(adminWords)) instance.addResourceBundle(lang, 'admin', messages);
}
