import type { CommandSpec } from '../../ham/hamlib/commands.js';
import type { HamlibErrorCode } from '../../ham/hamlib/errors.js';
import type { ExtPrefix, HamlibRequest, ParsedLine } from './request.js';

// Replies as Hamlib 4.5's rigctld and rotctld write them (rigctl_parse.c / rotctl_parse.c, the
// end of rigctl_parse()). With r the command's result:
//   normal     a set: "RPRT 0\n" or "RPRT -n\n"; a get: its values, one per line, and no RPRT
//              line unless it failed ("RPRT -n\n" instead of the values).
//   extended   a header "<long name>:[ VFO][ arg...]<sep>", then "Label: value<sep>" per value,
//              then "RPRT <r>\n". sep is '\n' for the '+' prefix, else the prefix char itself.
// Exceptions kept because clients parse them: \chk_vfo answers its value alone (no header, no
// RPRT, "ChkVFO: " before it when extended), \get_powerstat ends its value with '\n' whatever
// the separator, and a text block (\dump_state, \dump_caps) is written as it is.

export type Outcome =
  /** A set that was done. */
  | { kind: 'done' }
  /** A get's values, in the order of the command's out labels. */
  | { kind: 'values'; values: readonly (string | number)[] }
  /** A block of text written as it is (it carries its own line ends). */
  | { kind: 'text'; text: string }
  | { kind: 'error'; code: HamlibErrorCode };

/** Commands whose value ends with '\n' even under a separator prefix (Hamlib prints "%d\n"). */
const NEWLINE_VALUES = new Set(['chk_vfo', 'get_powerstat', 'get_lock_mode']);
/** Commands answered without the extended header and without a closing RPRT. */
const BARE = new Set(['chk_vfo']);

const separator = (ext: ExtPrefix | null) => (ext === null || ext === '+' ? '\n' : ext);

export function rprt(code: number): string {
  return `RPRT ${code}\n`;
}

export function formatReply(request: HamlibRequest, outcome: Outcome): string {
  return format(request.spec, request.ext, request.vfo, request.args, outcome);
}

/** The reply to a line parseRequestLine found invalid: its RPRT, with the header when the command was known. */
export function formatInvalid(parsed: Extract<ParsedLine, { kind: 'invalid' }>): string {
  if (parsed.spec === null) return rprt(parsed.code); // Hamlib has no name to put in a header
  return format(parsed.spec, parsed.ext, parsed.vfo, parsed.args, { kind: 'error', code: parsed.code });
}

function format(spec: CommandSpec, ext: ExtPrefix | null, vfo: string | null, args: readonly string[], outcome: Outcome): string {
  const sep = separator(ext);
  const bare = BARE.has(spec.name);
  let out = ext !== null && !bare ? `${spec.name}:${vfo === null ? '' : ` ${vfo}`}${args.map((a) => ` ${a}`).join('')}${sep}` : '';

  if (outcome.kind === 'error') return out + rprt(outcome.code);
  if (outcome.kind === 'values') {
    const end = NEWLINE_VALUES.has(spec.name) ? '\n' : sep;
    outcome.values.forEach((v, i) => {
      const label = spec.out[i];
      out += `${ext !== null && label !== undefined ? `${label}: ` : ''}${v}${end}`;
    });
  } else if (outcome.kind === 'text') {
    out += outcome.text;
  }
  if (bare) return sep === '\n' ? out : `${out}\n`; // rigctld ends the exchange with a newline when the separator was no newline
  if (ext !== null || !spec.answers) out += rprt(0);
  return out;
}
