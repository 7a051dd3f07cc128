import { useId, useState } from 'react';
import { ApiProblem } from '../../api.ts';
import { useConsole } from '../context.ts';
import { useWords } from '../words.ts';
import { parseHostsCsv } from './csv.ts';
import { problemWords } from './HostForm.tsx';
import { hostsWords } from './words.ts';

/** What the service answers an import or its dry run (docs/api.md, "Importing hosts"). */
interface ImportAnswer {
  applied: boolean;
  created: number;
  updated: number;
  invalid: number;
  rows: { row: number; email: string | null; action?: 'create' | 'update'; error?: { type: string; field?: string } }[];
}

/**
 * Importing hosts from a CSV file: the file is read here, every row checked by the service (a dry run) and shown
 * with what it would do or why it cannot; only a file without a bad row can be imported, all of it at once.
 */
export function HostImport(props: { onImported: () => void }) {
  const { api } = useConsole();
  const words = useWords(hostsWords);
  const id = useId();
  const [rows, setRows] = useState<Record<string, string | boolean>[]>([]);
  const [ignored, setIgnored] = useState<string[]>([]);
  const [invite, setInvite] = useState(false);
  const [preview, setPreview] = useState<ImportAnswer>();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string>();

  const check = async (file: File | undefined) => {
    setPreview(undefined);
    setMessage(undefined);
    if (!file) return;
    const parsed = parseHostsCsv(await file.text());
    setRows(parsed.rows);
    setIgnored(parsed.ignored);
    if (parsed.rows.length === 0) {
      setMessage(words.emptyFile);
      return;
    }
    setBusy(true);
    try {
      setPreview(await api.send<ImportAnswer>('POST', '/v1/host/import', { dryRun: true, hosts: parsed.rows }));
    } catch (error) {
      setMessage(problemWords(words, error));
    } finally {
      setBusy(false);
    }
  };

  const apply = async () => {
    setBusy(true);
    try {
      const done = await api.send<ImportAnswer>('POST', '/v1/host/import', { hosts: rows, invite });
      setPreview(undefined);
      setRows([]);
      setMessage(words.imported(done.created, done.updated));
      props.onImported();
    } catch (error) {
      // The directory changed since the preview: the answer holds each row's problem again.
      if (error instanceof ApiProblem && error.type === 'INVALID_ROWS')
        setPreview(error.extra as unknown as ImportAnswer);
      else setMessage(problemWords(words, error));
    } finally {
      setBusy(false);
    }
  };

  const rowText = (row: ImportAnswer['rows'][number]) => {
    if (row.error) {
      return row.error.type === 'INVALID_PARAMETER' && row.error.field
        ? words.invalidField(row.error.field)
        : words.problem(row.error.type);
    }
    return row.action === 'update' ? words.willUpdate : words.willCreate;
  };

  return (
    <section className="console-card directory-import" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{words.importTitle}</h2>
      <label>
        {words.file}
        <input
          type="file"
          accept=".csv,text/csv"
          aria-describedby={`${id}-hint`}
          onChange={(event) => void check(event.target.files?.[0])}
        />
      </label>
      <p id={`${id}-hint`} className="directory-sub">
        {words.fileHint}
      </p>
      {ignored.length > 0 ? <p>{words.ignored(ignored.join(', '))}</p> : null}
      <p role="status">{busy ? words.previewing : (message ?? '')}</p>
      {preview ? (
        <>
          <p role={preview.invalid > 0 ? 'alert' : undefined}>
            {preview.invalid > 0
              ? words.rowErrors(preview.invalid)
              : words.rowsToImport(preview.created, preview.updated)}
          </p>
          <table className="console-table directory-table">
            <thead>
              <tr>
                <th scope="col">{words.row}</th>
                <th scope="col">{words.name}</th>
                <th scope="col">{words.email}</th>
                <th scope="col">{words.result}</th>
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row) => (
                <tr key={row.row} className={row.error ? 'directory-row-error' : undefined}>
                  {/* The spreadsheet's own line: its header is line 1. */}
                  <td data-label={words.row}>{row.row + 2}</td>
                  <td data-label={words.name}>{String(rows[row.row]?.name ?? '')}</td>
                  <td data-label={words.email}>{row.email ?? ''}</td>
                  <td data-label={words.result}>{rowText(row)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {preview.invalid === 0 ? (
            <>
              <label className="directory-check">
                <input type="checkbox" checked={invite} onChange={(event) => setInvite(event.target.checked)} />
                {words.inviteNew}
              </label>
              <button type="button" className="btn btn-small" disabled={busy} onClick={() => void apply()}>
                {words.importNow(preview.rows.length)}
              </button>
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
