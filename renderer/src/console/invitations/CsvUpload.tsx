import { type ChangeEvent, useEffect, useState } from 'react';
import { useConsole } from '../context.ts';
import { useWords } from '../words.ts';
import { bulkRow, type CsvTable, csvTable, type HostChoice, maxCsvRows } from './csv.ts';
import { FormField, HostField, InputField, SendEmailCheck, useFormAction } from './FormField.tsx';
import { localInput, nextHour } from './when.ts';
import { invitationsWords } from './words.ts';

/** POST /v1/invitees/bulk's answer (docs/api.md, "Invitees in bulk"). */
interface BulkAnswer {
  dryRun: boolean;
  created: number;
  errors: { index: number; type: string }[];
}

/**
 * A list of guests from a CSV file: read in the browser (papaparse, loaded with the first file), checked by the service's dry run and shown as
 * a preview with each row's problem, and created only when every row is good, all in one request (all or none).
 */
export function CsvUpload(props: { hosts: readonly HostChoice[] | undefined; onDone: (sentence: string) => void }) {
  const { api, session } = useConsole();
  const words = useWords(invitationsWords);
  const [hostId, setHostId] = useState(props.hosts?.[0]?.id ?? session.account.hostId);
  const [expected, setExpected] = useState(localInput(session.company.timeZone, nextHour(new Date())));
  const [sendInvitationEmail, setSend] = useState(true);
  const [table, setTable] = useState<CsvTable>();
  const [fileProblem, setFileProblem] = useState<string>();
  const [preview, setPreview] = useState<BulkAnswer>();
  const { busy, run, problemLine, setProblem } = useFormAction();

  // Who invites only for themselves finds themselves in a host column, and no one else.
  const { account } = session;
  const hosts = props.hosts ?? [{ id: account.hostId, name: account.name, email: account.email }];
  const rows = (table?.records ?? []).map((record) =>
    bulkRow(record.values, hosts, { hostId, expected, sendInvitationEmail }),
  );
  const body = JSON.stringify(rows);

  // Every change of the file or of what applies to all its rows is checked again by the service.
  useEffect(() => {
    const invitees = JSON.parse(body) as Record<string, unknown>[];
    if (invitees.length === 0) return;
    let current = true;
    setPreview(undefined);
    void run(async () => {
      const answer = await api.send<BulkAnswer>('POST', '/v1/invitees/bulk', { invitees, dryRun: true });
      if (current) setPreview(answer);
    });
    return () => {
      current = false;
    };
  }, [api, body, run]);

  const read = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setTable(undefined);
    setPreview(undefined);
    setFileProblem(undefined);
    setProblem(undefined);
    if (!file) return;
    // The parser loads with the first file: the page opens without it.
    const { default: papa } = await import('papaparse');
    const parsed = papa.parse<string[]>(await file.text(), { skipEmptyLines: 'greedy' });
    const broken = parsed.errors[0];
    if (broken) return setFileProblem(words.unreadable((broken.row ?? 0) + 1));
    const read = csvTable(parsed.data);
    if (read.records.length === 0) return setFileProblem(words.emptyFile);
    if (read.records.length > maxCsvRows) return setFileProblem(words.tooMany(maxCsvRows));
    setTable(read);
  };

  const create = () =>
    run(async () => {
      const answer = await api.send<BulkAnswer>('POST', '/v1/invitees/bulk', { invitees: rows });
      if (answer.created > 0) {
        props.onDone(words.created(answer.created));
        setTable(undefined);
        setPreview(undefined);
      } else setPreview(answer);
    });

  const errorOf = new Map(preview?.errors.map((error) => [error.index, error.type]));
  const hostName = (id: unknown) => hosts.find((host) => host.id === id)?.name ?? String(id);
  return (
    <div className="console-card invite-form">
      <h2>{words.upload}</h2>
      <FormField label={words.file} hint={words.uploadHint}>
        {(control) => <input {...control} type="file" accept=".csv,text/csv" onChange={(event) => void read(event)} />}
      </FormField>
      <HostField hosts={props.hosts} value={hostId} onChange={setHostId} />
      <InputField label={words.expected} type="datetime-local" required value={expected} onChange={setExpected} />
      <SendEmailCheck checked={sendInvitationEmail} onChange={setSend} />
      {fileProblem && (
        <p role="alert" className="console-problem">
          {fileProblem}
        </p>
      )}
      {table && table.ignored.length > 0 && <p>{words.ignoredColumns(table.ignored.join(', '))}</p>}
      {problemLine}
      {table && preview && (
        <section aria-labelledby="invite-preview">
          <h3 id="invite-preview">{words.preview}</h3>
          <p role="status">{words.previewSummary(rows.length - preview.errors.length, preview.errors.length)}</p>
          <div className="invite-preview">
            <table className="console-table">
              <thead>
                <tr>
                  <th scope="col">{words.line}</th>
                  <th scope="col">{words.name}</th>
                  <th scope="col">{words.email}</th>
                  <th scope="col">{words.phone}</th>
                  <th scope="col">{words.expected}</th>
                  <th scope="col">{words.host}</th>
                  <th scope="col">{words.check}</th>
                </tr>
              </thead>
              <tbody>
                {table.records.map((record, index) => {
                  const error = errorOf.get(index);
                  const row = rows[index] ?? {};
                  return (
                    <tr key={record.line} className={error ? 'invite-row-bad' : undefined}>
                      <td data-label={words.line}>{record.line}</td>
                      <td data-label={words.name}>{record.values.name}</td>
                      <td data-label={words.email}>{record.values.email}</td>
                      <td data-label={words.phone}>{record.values.phone}</td>
                      <td data-label={words.expected}>{String(row.expectedAt ?? '').replace('T', ' ')}</td>
                      <td data-label={words.host}>{hostName(row.hostId)}</td>
                      <td data-label={words.check}>{error ? words.problem(error) : words.ready}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {preview.errors.length > 0 ? (
            <p className="console-problem">{words.fixFirst}</p>
          ) : (
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void create()}>
              {words.createAll(rows.length)}
            </button>
          )}
        </section>
      )}
    </div>
  );
}
