import Papa from 'papaparse';

/*
 * A spreadsheet of hosts as the import sends it (docs/console.md, "Hosts"): one row per host, its first line naming
 * the columns in any of the console's languages. A cell left empty is a field left out (an update keeps it).
 */

/** The host fields a column may hold, each with the headers that name it (compared without case, spaces or dashes). */
const columns: Readonly<Record<string, readonly string[]>> = {
  name: ['name', 'nome', 'fullname', '姓名', '名字'],
  email: ['email', 'mail', 'correio', '电子邮件', '邮箱'],
  role: ['role', 'função', 'funcao', 'papel', 'rolle', '角色'],
  phone: ['phone', 'telefone', 'celular', 'telefon', 'mobil', '电话', '手机'],
  countryCode: ['countrycode', 'ddi', 'códigodopaís', 'codigodopais', 'ländervorwahl', 'landesvorwahl', '国家代码'],
  position: ['position', 'cargo', 'jobtitle', 'title', 'funktion', '职位'],
  sector: ['sector', 'setor', 'department', 'departamento', 'abteilung', '部门'],
  isActive: ['isactive', 'active', 'ativo', 'aktiv', '启用', '在职'],
};

const simplified = (header: string) => header.toLowerCase().replace(/[\s_\-.]/g, '');

/** The host field a column header names, if any. */
export function fieldOfHeader(header: string): string | undefined {
  const name = simplified(header);
  return Object.keys(columns).find((field) => columns[field]?.includes(name));
}

const yes = new Set(['yes', 'y', 'true', '1', 'sim', 's', 'ja', 'j', '是']);
const no = new Set(['no', 'n', 'false', '0', 'não', 'nao', 'nein', '否']);

export interface ParsedHosts {
  /** The rows as the import sends them: each host field that has a cell. */
  rows: Record<string, string | boolean>[];
  /** Headers that name no host field: their columns are not imported. */
  ignored: string[];
}

/** Reads a CSV file's text (comma or semicolon separated, as spreadsheets save it in each locale). */
export function parseHostsCsv(text: string): ParsedHosts {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [header = [], ...lines] = parsed.data;
  const fields = header.map(fieldOfHeader);
  const ignored = header.filter((name, i) => fields[i] === undefined && name.trim() !== '');
  const rows = lines.map((cells) => {
    const row: Record<string, string | boolean> = {};
    cells.forEach((cell, i) => {
      const field = fields[i];
      const value = cell.trim();
      if (!field || value === '') return;
      const word = value.toLowerCase();
      // A yes or no in the spreadsheet's language; anything else goes as written, for the service to refuse.
      row[field] = field === 'isActive' && yes.has(word) ? true : field === 'isActive' && no.has(word) ? false : value;
    });
    return row;
  });
  return { rows, ignored };
}
