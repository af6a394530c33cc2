import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, errorText, getJson, postJson } from '../lib/api';
import { changes, fieldsOf, fromInput, getAt, requestSchema, setAt, toInput, type Field, type JsonSchema } from '../lib/schema-form';

// A settings form bound to one resource: its fields come from the resource's schema in /docs,
// its values from GET `path` ({state}); Save sends only what changed (the API merges partial
// objects) and shows every error the API names under its field.

let docs: Promise<unknown> | null = null;
/** /docs is read once per page (it is the same for every form). */
export const loadDocs = () => (docs ??= getJson<unknown>('/docs').then((a) => a.data));

export interface ResourceFormProps {
  path: string;
  title: string;
  /** Fields to show, in order (default: every field of the schema). */
  fields?: string[];
  /** Help under a field, by path. */
  help?: Record<string, ComponentChildren>;
  /** Suggestions for a text field, by path (a datalist). */
  suggest?: Record<string, readonly string[]>;
  /** Fields shown as a multi-line text (lists, one item per line). */
  multiline?: string[];
  onSaved?(state: unknown): void;
  children?: ComponentChildren;
}

type Status = { kind: 'idle' } | { kind: 'saved' } | { kind: 'error'; error: ApiError | Error };

export function ResourceForm(props: ResourceFormProps) {
  const [schema, setSchema] = useState<JsonSchema | null>(null);
  const [saved, setSaved] = useState<unknown>(null);
  const [draft, setDraft] = useState<unknown>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [busy, setBusy] = useState(false);
  const id = props.path.replace(/\W+/g, '-');

  useEffect(() => {
    loadDocs().then((d) => setSchema(requestSchema(d, props.path)), (e) => setStatus({ kind: 'error', error: e }));
    getJson<{ state: unknown }>(props.path).then(
      (a) => {
        setSaved(a.data.state);
        setDraft(a.data.state);
      },
      (e) => setStatus({ kind: 'error', error: e }),
    );
  }, [props.path]);

  const fields = useMemo(() => {
    const all = schema ? fieldsOf(schema) : [];
    return props.fields ? props.fields.flatMap((n) => all.filter((f) => f.path === n)) : all;
  }, [schema, props.fields]);

  const diff = changes(saved, draft);
  const dirty = Object.keys(diff).length > 0;
  const error = status.kind === 'error' ? status.error : null;
  const fieldError = (path: string) => (error instanceof ApiError ? error.fieldMessage(path) : null);

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await postJson<{ state: unknown }>(props.path, diff);
      setSaved(r.state);
      setDraft(r.state);
      setStatus({ kind: 'saved' });
      props.onSaved?.(r.state);
    } catch (err) {
      setStatus({ kind: 'error', error: err as Error });
    } finally {
      setBusy(false);
    }
  };

  const input = (f: Field): ComponentChildren => {
    const fid = `${id}-${f.path}`;
    const err = fieldError(f.path);
    const value = getAt(draft, f.path);
    const set = (v: unknown) => {
      setDraft(setAt(draft, f.path, v));
      if (status.kind === 'saved') setStatus({ kind: 'idle' });
    };
    const described = err ? `${fid}-err` : undefined;
    if (f.kind === 'group') {
      return (
        <fieldset key={f.path}>
          <legend>{f.label}</legend>
          {f.children!.map(input)}
        </fieldset>
      );
    }
    let control: ComponentChildren;
    if (f.kind === 'boolean') {
      control = <input id={fid} type="checkbox" checked={value === true} aria-describedby={described} onChange={(e) => set((e.target as HTMLInputElement).checked)} />;
    } else if (f.kind === 'enum') {
      control = (
        <select id={fid} value={toInput(f, value)} aria-describedby={described} onChange={(e) => set(fromInput(f, (e.target as HTMLSelectElement).value))}>
          {f.nullable && <option value="">not set</option>}
          {f.options!.map((o) => (
            <option key={String(o)} value={String(o)}>
              {typeof o === 'boolean' ? (o ? 'yes' : 'no') : String(o)}
            </option>
          ))}
        </select>
      );
    } else if (f.kind === 'list' && props.multiline?.includes(f.path)) {
      control = <textarea id={fid} rows={4} value={toInput(f, value)} aria-describedby={described} onInput={(e) => set(fromInput(f, (e.target as HTMLTextAreaElement).value))} />;
    } else {
      const numeric = f.kind === 'number' || f.kind === 'integer';
      const list = props.suggest?.[f.path] ? `${fid}-list` : undefined;
      control = (
        <input
          id={fid}
          type={numeric ? 'number' : 'text'}
          inputMode={numeric ? 'decimal' : undefined}
          step={f.kind === 'integer' ? 1 : 'any'}
          min={f.min}
          max={f.max}
          maxLength={f.maxLength}
          list={list}
          value={toInput(f, value)}
          aria-describedby={described}
          onInput={(e) => set(fromInput(f, (e.target as HTMLInputElement).value))}
        />
      );
    }
    return (
      <div class={`field field-${f.kind}`} key={f.path}>
        <label for={fid}>
          {f.label}
          {f.unit && <span class="muted"> ({f.unit})</span>}
        </label>
        {control}
        {props.suggest?.[f.path] && (
          <datalist id={`${fid}-list`}>
            {props.suggest[f.path].map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
        )}
        {props.help?.[f.path] && <div class="help muted">{props.help[f.path]}</div>}
        {err && (
          <div class="field-error" id={`${fid}-err`} data-field-error={f.path}>
            {err}
          </div>
        )}
      </div>
    );
  };

  return (
    <form class="resource-form" onSubmit={save} data-form={props.path} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{props.title}</h3>
      {error && (
        <p class="banner bad" role="alert">
          {errorText(error)}
        </p>
      )}
      {draft !== null && fields.map(input)}
      {props.children}
      <div class="row">
        <button type="submit" class="primary" disabled={busy || !dirty}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        {status.kind === 'saved' && !dirty && (
          <span class="ok" role="status">
            Saved
          </span>
        )}
        {dirty && <span class="muted">unsaved changes</span>}
      </div>
    </form>
  );
}
