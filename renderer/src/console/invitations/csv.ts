import { fold } from '../../search.ts';

/*
 * A list of guests uploaded as CSV (docs/console.md, "Invitations"): the columns it may have, each recognised by its
 * name in any of the console's languages, and each record made into a row of POST /v1/invitees/bulk. Pure: the page
 * parses the file (papaparse) and shows the service's dry run of these rows before anything is created.
 */

export const csvColumns = ['name', 'email', 'phone', 'company', 'expected', 'host'] as const;
export type CsvColumn = (typeof csvColumns)[number];

/** The header names each column goes by, compared folded (case and accents aside). */
const aliases: Record<CsvColumn, readonly string[]> = {
  name: ['name', 'full name', 'nome', 'nome completo', 'vollständiger name', '姓名', '名字'],
  email: ['email', 'e-mail', 'mail', 'e-mail-adresse', '电子邮件', '邮箱'],
  phone: ['phone', 'telephone', 'mobile', 'telefone', 'celular', 'telefon', 'handy', '电话', '手机'],
  company: ['company', 'organization', 'empresa', 'firma', 'unternehmen', '公司', '单位'],
  expected: [
    'expected',
    'expected at',
    'date',
    'when',
    'data',
    'quando',
    'horário',
    'erwartet',
    'datum',
    'termin',
    '时间',
    '日期',
    '预计到达',
  ],
  host: ['host', 'host email', 'anfitrião', 'anfitriao', 'gastgeber', '接待人'],
};

/** The upload's limit, as the service's (POST /v1/invitees/bulk). */
export const maxCsvRows = 500;

export interface CsvTable {
  /** The column of each position of a record; null for a column not recognised (its values are ignored). */
  columns: (CsvColumn | null)[];
  /** The headers not recognised, for the page to name. */
  ignored: string[];
  /** The records after the header, each with its line in the file (from 2: line 1 is the header). */
  records: { line: number; values: Partial<Record<CsvColumn, string>> }[];
}

const columnOf = (header: string): CsvColumn | null => {
  const folded = fold(header).trim();
  return csvColumns.find((column) => aliases[column].some((alias) => fold(alias) === folded)) ?? null;
};

/** The parsed file's records (a header first) as the upload's table; blank records are left out. Pure. */
export function csvTable(records: readonly (readonly string[])[]): CsvTable {
  const [header = [], ...rest] = records;
  const columns = header.map(columnOf);
  const ignored = header.filter((_, index) => columns[index] === null && header[index]?.trim());
  return {
    columns,
    ignored,
    records: rest
      .map((record, index) => {
        const values: Partial<Record<CsvColumn, string>> = {};
        for (const [position, column] of columns.entries()) {
          const value = record[position]?.trim();
          if (column && value) values[column] = value;
        }
        return { line: index + 2, values };
      })
      .filter((record) => Object.keys(record.values).length > 0),
  };
}

export interface HostChoice {
  id: string;
  name: string;
  email?: string;
}

/**
 * A record as a row of POST /v1/invitees/bulk. The host column names a host by e-mail or by name; a name found
 * nowhere is sent as it is, so the service's dry run answers HOST_NOT_FOUND for the row. Without the column, the
 * host chosen for the whole upload. An expected time as people write it ("2026-12-01 09:30") is read in the
 * company's zone by the service; without one, the upload's. Pure.
 */
export function bulkRow(
  values: Partial<Record<CsvColumn, string>>,
  hosts: readonly HostChoice[],
  defaults: { hostId: string; expected: string; sendInvitationEmail: boolean },
): Record<string, unknown> {
  const named = values.host && fold(values.host);
  const host = named
    ? (hosts.find((h) => fold(h.email) === named || fold(h.name) === named)?.id ?? values.host)
    : defaults.hostId;
  return {
    name: values.name ?? '',
    ...(values.email ? { email: values.email } : {}),
    ...(values.phone ? { phone: values.phone } : {}),
    ...(values.company ? { company: values.company } : {}),
    expectedAt: (values.expected ?? defaults.expected).replace(' ', 'T'),
    hostId: host,
    sendInvitationEmail: defaults.sendInvitationEmail,
  };
}
