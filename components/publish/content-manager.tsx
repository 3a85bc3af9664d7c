'use client';

import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { plural } from '@/lib/platform/format';
import { formatFileSize, tooLargeMessage } from '@/lib/platform/file-size';
import { ConfirmStep } from '@/components/ui/confirm-step';

/** Up to this Retry-After a refusal is the per-account upload slot, and the file is resent; longer is the hourly limit. */
const MAX_TURN_WAIT_SECONDS = 5;

// The hosted content panel (docs/api.md §9.5). Files go one request each over XHR, for upload progress; size and
// type are checked here before sending, and again by the server.

/** lib/engine/uploads.ts DocumentView. */
export interface ConsoleDocument {
  id: string;
  name: string;
  title: string;
  status: 'queued' | 'ingesting' | 'ready' | 'failed';
  byteSize: number;
  pageCount: number | null;
  chunkCount: number;
  error: string | null;
  updatedAt: string;
}

interface UploadRow {
  key: string;
  name: string;
  size: number;
  /** Percent. */
  progress: number;
  state: 'sending' | 'sent' | 'refused';
  message?: string;
}

const POLL_MS = 1_500;

const STATUS_TEXT: Record<ConsoleDocument['status'], string> = { queued: 'Queued', ingesting: 'Ingesting', ready: 'Ready', failed: 'Failed' };
const STATUS_TONE: Record<ConsoleDocument['status'], string> = {
  queued: 'bg-slate-100 text-slate-800',
  ingesting: 'bg-brand-50 text-brand-700',
  ready: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-900',
};

function statusLine(d: ConsoleDocument): string {
  const pages = d.pageCount ? plural(d.pageCount, 'page') : '';
  if (d.status === 'ingesting') return pages ? `Ingesting · ${pages}` : 'Ingesting';
  if (d.status === 'ready') return `Ready · ${pages ? `${pages} · ` : ''}${plural(d.chunkCount, 'passage')}`;
  return STATUS_TEXT[d.status];
}

/** For a refusal without a sentence of its own (a proxy's page): never a bare status code. */
function plainRefusal(status: number): string {
  return status >= 500 ? 'Something went wrong on our side; try again in a moment.' : 'The request was refused; reload the page and try again.';
}

function errorBody(text: string): { message?: unknown; limit_bytes?: unknown } {
  try {
    const body: unknown = JSON.parse(text);
    return body && typeof body === 'object' ? body : {};
  } catch {
    return {};
  }
}

async function errorMessage(response: Response): Promise<string> {
  const { message } = errorBody(await response.text().catch(() => ''));
  return typeof message === 'string' ? message : plainRefusal(response.status);
}

export function sizeRefusal(file: { name: string; size: number }, maxBytes: number): string {
  return `Not sent: ${tooLargeMessage(file.name, file.size, maxBytes)}`;
}

/** A 413 that is not JSON comes from a web server in front of Almanac with a lower limit than Almanac's. */
export function uploadRefusal(status: number, responseText: string, file: { name: string; size: number }, maxBytes: number): string {
  const body = errorBody(responseText);
  if (status === 413 && typeof body.limit_bytes === 'number') return tooLargeMessage(file.name, file.size, body.limit_bytes);
  if (typeof body.message === 'string') return body.message;
  if (status === 413) {
    return `“${file.name}” (${formatFileSize(file.size)}) is larger than this site's web server accepts, although Almanac takes files of up to ${formatFileSize(maxBytes)}; ask whoever runs the site to raise that limit.`;
  }
  return plainRefusal(status);
}

export function ContentManager({
  kbId,
  basePath,
  maxBytes,
  accept,
  initialDocuments,
}: {
  kbId: string;
  basePath: string;
  maxBytes: number;
  accept: string[];
  initialDocuments: ConsoleDocument[];
}) {
  const [documents, setDocuments] = useState(initialDocuments);
  const [uploads, setUploads] = useState<UploadRow[]>([]);
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const replaceRef = useRef<HTMLInputElement>(null);
  const replacing = useRef<string | null>(null);

  const refresh = useCallback(async () => {
    const response = await fetch(`${basePath}/documents`, { cache: 'no-store' });
    if (response.ok) setDocuments(((await response.json()) as { documents: ConsoleDocument[] }).documents);
  }, [basePath]);

  const busy = documents.some((d) => d.status === 'queued' || d.status === 'ingesting') || uploads.some((u) => u.state === 'sending');
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [busy, refresh]);

  const patchUpload = (key: string, patch: Partial<UploadRow>) => setUploads((rows) => rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const send = (file: File, nameOverride?: string) => {
    const key = `${file.name}-${file.size}-${Math.random()}`;
    const name = nameOverride ?? file.name;
    const extension = name.slice(name.lastIndexOf('.')).toLowerCase();
    const row: UploadRow = { key, name, size: file.size, progress: 0, state: 'sending' };
    if (!accept.includes(extension)) {
      setUploads((rows) => [...rows, { ...row, state: 'refused', message: `Not sent: use ${accept.join(', ')} files.` }]);
      setAnnouncement(`${name} was not sent: unsupported type.`);
      return;
    }
    if (file.size > maxBytes) {
      const message = sizeRefusal({ name, size: file.size }, maxBytes);
      setUploads((rows) => [...rows, { ...row, state: 'refused', message }]);
      setAnnouncement(message);
      return;
    }
    if (file.size === 0) {
      setUploads((rows) => [...rows, { ...row, state: 'refused', message: 'Not sent: the file is empty.' }]);
      return;
    }
    setUploads((rows) => [...rows, row]);
    const form = new FormData();
    form.append('file', file, name);
    const transmit = () => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${basePath}/documents`);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) patchUpload(key, { progress: Math.round((event.loaded / event.total) * 100) });
      };
      xhr.onload = () => {
        const wait = Number(xhr.getResponseHeader('Retry-After'));
        if (xhr.status === 429 && wait > 0 && wait <= MAX_TURN_WAIT_SECONDS) {
          patchUpload(key, { progress: 0 });
          setTimeout(transmit, wait * 1000);
        } else if (xhr.status === 202) {
          patchUpload(key, { progress: 100, state: 'sent' });
          setAnnouncement(`${name} uploaded and queued for ingestion.`);
          void refresh();
        } else {
          const message = uploadRefusal(xhr.status, xhr.responseText, { name, size: file.size }, maxBytes);
          patchUpload(key, { state: 'refused', message });
          setAnnouncement(`${name} was refused: ${message}`);
        }
      };
      xhr.onerror = () => {
        patchUpload(key, { state: 'refused', message: 'The upload failed: check your connection and try again.' });
        setAnnouncement(`${name}: the upload failed.`);
      };
      xhr.send(form);
    };
    transmit();
  };

  const sendAll = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) send(file);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    sendAll(event.dataTransfer.files);
  };

  const [confirming, setConfirming] = useState<string | null>(null);
  const remove = async (doc: ConsoleDocument) => {
    setConfirming(null);
    const response = await fetch(`${basePath}/documents/${encodeURIComponent(doc.id)}`, { method: 'DELETE' });
    setAnnouncement(response.ok ? `${doc.name} deleted.` : `${doc.name} was not deleted: ${await errorMessage(response)}`);
    await refresh();
  };

  const reindex = async () => {
    const response = await fetch(`${basePath}/reindex`, { method: 'POST' });
    setAnnouncement(
      response.ok ? 'Reindex queued: passages are rebuilt from your documents in the background.' : `Reindex refused: ${await errorMessage(response)}`,
    );
  };

  const startReplace = (doc: ConsoleDocument) => {
    replacing.current = doc.name;
    replaceRef.current?.click();
  };

  return (
    <div data-kb={kbId}>
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cx('rounded-lg border-2 border-dashed p-6 text-center', dragging ? 'border-brand-600 bg-brand-50' : 'border-slate-300 bg-white')}
        data-testid="dropzone"
      >
        <p className="text-sm text-slate-800">Drop files here, or</p>
        <label
          htmlFor="content-files"
          className="mt-2 inline-block cursor-pointer rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white focus-within:outline focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-700 hover:bg-brand-800"
        >
          Choose files
          <input
            ref={inputRef}
            id="content-files"
            type="file"
            multiple
            accept={accept.join(',')}
            className="sr-only"
            onChange={(event) => {
              sendAll(event.target.files);
              event.target.value = '';
            }}
          />
        </label>
        <p className="mt-2 text-xs text-slate-700">
          {accept.join(' ')} · up to {formatFileSize(maxBytes)} each · several at once
        </p>
        <input
          ref={replaceRef}
          type="file"
          accept={accept.join(',')}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file && replacing.current) send(file, replacing.current);
            replacing.current = null;
            event.target.value = '';
          }}
        />
      </div>

      <p role="status" aria-live="polite" className="sr-only" data-testid="content-announcement">
        {announcement}
      </p>

      {uploads.length > 0 ? (
        <ul className="mt-4 space-y-2" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.key} className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm" data-testid="upload-row">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 break-all font-medium text-slate-900">{u.name}</span>
                <span className={u.state === 'refused' ? 'text-red-800' : 'text-slate-700'}>
                  {u.state === 'sending' ? `Uploading ${u.progress}%` : u.state === 'sent' ? 'Uploaded' : u.message}
                </span>
              </div>
              {u.state !== 'refused' ? <progress className="mt-1 h-2 w-full" max={100} value={u.progress} aria-label={`Upload of ${u.name}`} /> : null}
            </li>
          ))}
        </ul>
      ) : null}

      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <h3 className="text-base font-semibold text-slate-900">Documents ({documents.length})</h3>
        <Button variant="secondary" size="sm" onClick={() => void reindex()} disabled={documents.length === 0}>
          Reindex all
        </Button>
      </div>
      {documents.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">No documents yet. Upload Markdown, text, HTML or PDF files to fill this knowledge base.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="documents">
          {documents.map((d) => (
            <li key={d.id} className="flex flex-wrap items-start justify-between gap-3 px-4 py-3" data-testid="document-row" data-status={d.status}>
              <div className="min-w-0">
                <p className="break-all font-medium text-slate-900">{d.name}</p>
                {/* anywhere: a title made from a long unbroken file name must wrap, not widen the page. */}
                <p className="mt-0.5 text-xs text-slate-700 [overflow-wrap:anywhere]">
                  {formatFileSize(d.byteSize)}
                  {d.title && d.title !== d.name ? ` · ${d.title}` : ''}
                </p>
                {d.status === 'failed' && d.error ? <p className="mt-1 text-sm text-red-800">{d.error}</p> : null}
                {d.status === 'failed' && d.chunkCount > 0 ? (
                  <p className="mt-1 text-sm text-slate-700">
                    The previous version still answers ({plural(d.chunkCount, 'passage')}). Replace the file again or delete it.
                  </p>
                ) : null}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <span className={cx('rounded-full px-2.5 py-0.5 text-xs font-semibold', STATUS_TONE[d.status])} data-testid="document-status">
                  {statusLine(d)}
                </span>
                <Button variant="ghost" size="xs" onClick={() => startReplace(d)}>
                  Replace<span className="sr-only"> {d.name}</span>
                </Button>
                {confirming === d.id ? (
                  <ConfirmStep
                    question={`Delete ${d.name}? Its passages stop answering at once.`}
                    confirmButton={
                      <Button variant="danger" size="sm" data-confirm="" onClick={() => void remove(d)}>
                        Delete<span className="sr-only"> {d.name}</span>
                      </Button>
                    }
                    onCancel={() => setConfirming(null)}
                  />
                ) : (
                  <Button variant="danger" size="xs" onClick={() => setConfirming(d.id)}>
                    Delete<span className="sr-only"> {d.name}</span>…
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
