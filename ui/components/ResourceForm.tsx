import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, errorText, getJson, postJson } from '../lib/api';
import { SignInHint } from './useActions';
import { applicableFields, changes, fieldsOf, fitsPattern, fromInput, getAt, optionText, pickFields, requestSchema, setAt, summary, toInput, type Field, type FieldSpec, type JsonSchema } from '../lib/schema-form';

// A settings form bound to one resource: its fields come from the resource's schema in /docs,
// its values from GET `path` ({state}); Save sends only what changed (the API merges partial
// objects) and shows every error the API names under its field. Used for every flat settings
// resource (GPS, timezone, developer overrides, catalog sources; radio and APRS later).

let docs: Promise<unknown> | null = null;
/** /docs is read once per page (it is the same for every form); a failed read is retried. */
export const loadDocs = () =>
  (docs ??= getJson<unknown>('/docs').then(
    (a) => a.data,
    (e) => {
      docs = null;
      throw e;
    },
  ));

export interface ResourceFormProps {
  /** The resource: GET answers {state}, POST takes a partial state and answers {state}. */
  path: string;
  title: string;
  /** Fields to show, in order, by dotted path, with optional label/unit/help (default: every field). */
  fields?: ReadonlyArray<string | FieldSpec>;
  /** Fields never shown (dotted paths). */
  hidden?: readonly string[];
  /** Text of the null choice of every nullable enum/boolean (default "not set"). */
  nullLabel?: string;
  /** Suggestions for a text field, by path (a datalist). */
  suggest?: Record<string, readonly string[]>;
  onSaved?(state: unknown): void;
  /** Extra content above the Save button (status of the resource, links). */
  children?: ComponentChildren;
  /**
   * What is still wrong with what is saved (an identity that cannot transmit): shown beside the
   * save status, so "Saved" never reads as "ready".
   */
  warning?: string | null;
}

type Status = { kind: 'idle' } | { kind: 'saved'; text: string } | { kind: 'error'; error: ApiError | Error };

export function ResourceForm(props: ResourceFormProps) {
  const [schema, setSchema] = useState<JsonSchema | null>(null);
  const [saved, setSaved] = useState<unknown>(null);
  const [draft, setDraft] = useState<unknown>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [busy, setBusy] = useState(false);
  // Unique on the page: a resource may be shown as several forms (APRS), each with its own title.
  const id = `form ${props.path} ${props.title}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');

  useEffect(() => {
    const fail = (e: Error) => setStatus({ kind: 'error', error: e });
    loadDocs().then((d) => {
      const s = requestSchema(d, props.path);
      s ? setSchema(s) : fail(new Error(`/docs has no request schema for POST ${props.path}`));
    }, fail);
    getJson<{ state: unknown }>(props.path).then((a) => {
      setSaved(a.data.state);
      setDraft(a.data.state);
    }, fail);
  }, [props.path]);

  const fields = useMemo(() => {
    const picked = pickFields(schema ? fieldsOf(schema) : [], props.fields, props.hidden);
    return props.nullLabel ? picked.map((f) => ({ nullLabel: props.nullLabel, ...f })) : picked;
  }, [schema, props.fields, props.hidden, props.nullLabel]);

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
      // What the appliance answered for the sent fields: it may have normalised them.
      setStatus({ kind: 'saved', text: summary(fields, r.state, Object.keys(diff)) });
      props.onSaved?.(r.state);
    } catch (err) {
      setStatus({ kind: 'error', error: err as Error });
    } finally {
      setBusy(false);
    }
  };

  const set = (path: string, v: unknown) => {
    setDraft(setAt(draft, path, v));
    if (status.kind === 'saved') setStatus({ kind: 'idle' });
  };

  const input = (f: Field): ComponentChildren => {
    if (f.kind === 'group') {
      return (
        <fieldset key={f.path}>
          <legend>{f.label}</legend>
          {f.children!.map(input)}
        </fieldset>
      );
    }
    const fid = `${id}-${f.path}`;
    const err = fieldError(f.path);
    const value = getAt(draft, f.path);
    const described = [err && `${fid}-err`, f.help && `${fid}-help`].filter(Boolean).join(' ') || undefined;
    const suggest = props.suggest?.[f.path];
    const common = { id: fid, 'aria-describedby': described, 'aria-invalid': err ? true : undefined };
    let control: ComponentChildren;
    if (f.kind === 'boolean') {
      control = <input {...common} type="checkbox" checked={value === true} onChange={(e) => set(f.path, (e.target as HTMLInputElement).checked)} />;
    } else if (f.kind === 'enum') {
      control = (
        <select {...common} value={toInput(f, value)} onChange={(e) => set(f.path, fromInput(f, (e.target as HTMLSelectElement).value))}>
          {f.nullable && <option value="">{f.nullLabel ?? 'not set'}</option>}
          {f.options!.map((o) => (
            <option key={String(o)} value={String(o)}>
              {optionText(f, o)}
            </option>
          ))}
        </select>
      );
    } else if (f.kind === 'list' && f.multiline) {
      control = <textarea {...common} rows={4} value={toInput(f, value)} onInput={(e) => set(f.path, fromInput(f, (e.target as HTMLTextAreaElement).value))} />;
    } else {
      const numeric = f.kind === 'number' || f.kind === 'integer';
      control = (
        <input
          {...common}
          type={numeric ? 'number' : f.secret ? 'password' : 'text'}
          inputMode={numeric ? 'decimal' : undefined}
          step={f.kind === 'integer' ? 1 : 'any'}
          min={f.min}
          max={f.max}
          maxLength={f.maxLength}
          // The pattern is a hint (tooltip, amber edge while it does not fit); the API's message decides.
          title={f.pattern ? `Format: ${f.pattern}` : undefined}
          class={fitsPattern(f, value) ? undefined : 'mismatch'}
          list={suggest ? `${fid}-list` : undefined}
          autoComplete={f.secret ? 'off' : undefined}
          value={toInput(f, value)}
          onInput={(e) => set(f.path, fromInput(f, (e.target as HTMLInputElement).value))}
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
        {suggest && (
          <datalist id={`${fid}-list`}>
            {suggest.map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
        )}
        {f.help && (
          <div class="help muted" id={`${fid}-help`}>
            {f.help}
          </div>
        )}
        {err && (
          <div class="field-error" id={`${fid}-err`} data-field-error={f.path}>
            {err}
          </div>
        )}
      </div>
    );
  };

  return (
    <form class="resource-form" onSubmit={save} data-form={props.path} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>{props.title}</h3>
      {error && (
        <p class="banner bad" role="alert">
          {errorText(error)}
          <SignInHint code={error instanceof ApiError ? error.code : undefined} />
        </p>
      )}
      {/* Only what the current choices use (a transport's own fields); hidden fields keep their values. */}
      {draft !== null && applicableFields(fields, draft).map(input)}
      {props.children}
      <div class="row">
        <button type="submit" class="primary" disabled={busy || !dirty}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        {dirty && <span class="muted">unsaved changes</span>}
      </div>
      {status.kind === 'saved' && !dirty && (
        <p class="saved" role="status">
          <span class="ok">Saved</span>
          {status.text && <span class="muted"> · {status.text}</span>}
        </p>
      )}
      {props.warning && (
        <p class="banner warn" role="alert" data-form-warning>
          {props.warning}
        </p>
      )}
    </form>
  );
}
