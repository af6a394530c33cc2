import type { ComponentChildren } from 'preact';

export type Tone = 'ok' | 'warn' | 'bad' | 'idle';

/** A coloured state word: the colour repeats what the text says, never replaces it. */
export function StatusBadge(props: { tone: Tone; children: ComponentChildren; title?: string }) {
  return (
    <span class={`badge ${props.tone}`} title={props.title} role="status">
      {props.children}
    </span>
  );
}
