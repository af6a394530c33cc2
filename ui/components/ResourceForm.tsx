import { Fragment, type ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, errorText, getJson, postJson } from '../lib/api';
import { SignInHint } from './useActions';
import { applicableFields, changes, fieldsOf, fitsPattern, fromInput, getAt, optionText, pickFields, requestSchema, setAt, summary, toInput, type Field, type FieldSpec, type JsonSchema, type Presence } from '../lib/schema-form';

/** A suggested value: as typed, or with its meaning ("1035", "Yaesu FT-991"). */
export type Suggestion = string | { value: string; label: string };

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
  /** Values offered beside a text or number field (a datalist): plain, or with the words that say what each is. */
  suggest?: Record<string, readonly Suggestion[]>;
  onSaved?(state: unknown): void;
  /** Extra content above the Save button (status of the resource, links). */
  children?: ComponentChildren;
  /**
   * What is still wrong with what is saved (an identity that cannot transmit): shown beside the
   * save status, so "Saved" never reads as "ready".
   */
  warning?: string | null;
  /**
   * The draft after each edit, made consistent where one choice rules out another value (a rig
   * without Wi-Fi is on USB), so no hidden field holds what the API refuses.
   */
  normalize?(draft: unknown): unknown;
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
  // A group's choice answers for the group itself only: its fields' errors stand by those fields.
  const fieldError = (f: Field) =>
    error instanceof ApiError ? (f.kind === 'group' ? (error.fields.find((x) => x.field === f.path)?.message ?? null) : error.fieldMessage(f.path)) : null;

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
    const next = setAt(draft, path, v);
    setDraft(props.normalize ? props.normalize(next) : next);
    if (status.kind === 'saved') setStatus({ kind: 'idle' });
  };

  const input = (f: Field): ComponentChildren => {
    if (f.kind === 'group') {
      const value = getAt(draft, f.path);
      // A nullable group with a presence is a choice first; its block only while it is chosen.
      return (
        <Fragment key={f.path}>
          {f.presence && field(f, presenceChoice(f, f.presence, value))}
          {(!f.presence || value != null) && (
            <fieldset data-group={f.path}>
              <legend>{f.label}</legend>
              {applicableFields(f.children!, draft).map(input)}
            </fieldset>
          )}
        </Fragment>
      );
    }
    return field(f, control(f));
  };

  const common = (f: Field) => {
    const fid = `${id}-${f.path}`;
    const err = fieldError(f);
    const described = [err && `${fid}-err`, f.help && `${fid}-help`].filter(Boolean).join(' ') || undefined;
    return { id: fid, 'aria-describedby': described, 'aria-invalid': err ? true : undefined };
  };

  /** "none" or "set": null, or the saved object (else the presence's initial one) back in the draft. */
  const presenceChoice = (f: Field, p: Presence, value: unknown) => (
    <select {...common(f)} value={value == null ? '' : 'set'} onChange={(e) => set(f.path, (e.target as HTMLSelectElement).value === '' ? null : (getAt(saved, f.path) ?? p.initial))}>
      <option value="">{p.none}</option>
      <option value="set">{p.set}</option>
    </select>
  );

  const control = (f: Field): ComponentChildren => {
    const value = getAt(draft, f.path);
    const fid = `${id}-${f.path}`;
    const suggest = props.suggest?.[f.path];
    let el: ComponentChildren;
    if (f.kind === 'boolean') {
      el = <input {...common(f)} type="checkbox" checked={value === true} onChange={(e) => set(f.path, (e.target as HTMLInputElement).checked)} />;
    } else if (f.kind === 'enum') {
      el = (
        <select {...common(f)} value={toInput(f, value)} onChange={(e) => set(f.path, fromInput(f, (e.target as HTMLSelectElement).value))}>
          {f.nullable && <option value="">{f.nullLabel ?? 'not set'}</option>}
          {f.options!.map((o) => (
            <option key={String(o)} value={String(o)}>
              {optionText(f, o)}
            </option>
          ))}
        </select>
      );
    } else if (f.kind === 'list' && f.multiline) {
      el = <textarea {...common(f)} rows={4} value={toInput(f, value)} onInput={(e) => set(f.path, fromInput(f, (e.target as HTMLTextAreaElement).value))} />;
    } else {
      const numeric = f.kind === 'number' || f.kind === 'integer';
      el = (
        <input
          {...common(f)}
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
      <>
        {el}
        {suggest && (
          <datalist id={`${fid}-list`}>
            {suggest.map((v) =>
              typeof v === 'string' ? (
                <option key={v} value={v} />
              ) : (
                <option key={v.value} value={v.value}>
                  {v.label}
                </option>
              ),
            )}
          </datalist>
        )}
      </>
    );
  };

  /** A control with its label (a presence's choice is labelled by it), help and the API's error. */
  const field = (f: Field, control: ComponentChildren) => {
    const fid = `${id}-${f.path}`;
    const err = fieldError(f);
    const kind = f.presence ? 'enum' : f.kind;
    return (
      <div class={`field field-${kind}`} key={f.presence ? `${f.path} choice` : f.path}>
        <label for={fid}>
          {f.presence?.label ?? f.label}
          {f.unit && <span class="muted"> ({f.unit})</span>}
        </label>
        {control}
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
