import { QUIT_WORDS, type CommandSpec } from '../../ham/hamlib/commands.js';
import { HamlibError, type HamlibErrorCode } from '../../ham/hamlib/errors.js';
import { parseVfo, type HamlibVfo } from '../../ham/hamlib/vocab.js';

// One request line of rigctld/rotctld to a request, or to why it is none. Never throws.
//
// A line is [prefix] command [VFO] [arguments], separated by spaces or tabs:
//   prefix   '+' (extended response, values one per line) or ';' '|' ',' (extended, that char
//            between the values); Hamlib takes it from the first character of the line.
//   command  a one-character name ('f', or a byte such as 0x8b, gpredict's get_dcd), a long
//            name after a backslash ('\get_freq'), 'q'/'Q' (quit), or gpredict's 'AOS'/'LOS'.
//   VFO      when the client turned vfo_opt on (\set_vfo_opt 1), commands that take a VFO read
//            one first ("f currVFO", "F VFOA 145800000"). A VFO name in that place is also
//            accepted with vfo_opt off (gpredict sends "f currVFO" once it believes vfo_opt is
//            on, whatever the daemon said).
//   args     the command's arguments, all required; words after them are ignored.
// Hamlib reads its socket as a character stream, so it would take "fm" as two commands and wait
// on the next line for a missing argument; a line-based daemon cannot, and refuses those lines.
// Blank lines and '#' comments get no reply at all, as from rigctld.

export type ExtPrefix = '+' | ';' | '|' | ',';

export interface HamlibRequest {
  /** The extended-response prefix, or null for the normal response. */
  ext: ExtPrefix | null;
  /** Hamlib's long name of the command ("get_freq"). */
  cmd: string;
  spec: CommandSpec;
  /** The VFO the client named before the arguments, or null. */
  vfo: HamlibVfo | null;
  args: string[];
}

export type ParsedLine =
  | { kind: 'request'; request: HamlibRequest }
  /** 'q' or 'Q': the client is leaving. */
  | { kind: 'quit'; ext: ExtPrefix | null }
  /** A blank line or a comment: no reply. */
  | { kind: 'silent' }
  /**
   * Not a request this daemon can run. spec is set when the command was recognised (its
   * arguments were wrong): the extended response then still names it.
   */
  | { kind: 'invalid'; ext: ExtPrefix | null; spec: CommandSpec | null; vfo: HamlibVfo | null; args: string[]; code: HamlibErrorCode; reason: string };

export interface LineParseOptions {
  /** The client's \set_vfo_opt: commands that take a VFO read it first. */
  vfoOpt: boolean;
}

const EXT_PREFIXES = new Set<string>(['+', ';', '|', ',']);
const SPACE = /[ \t]+/;

/** A command table, indexed once for lookups by short and by long name. */
export class CommandTable {
  private readonly byShort = new Map<string, CommandSpec>();
  private readonly byLong = new Map<string, CommandSpec>();

  constructor(readonly commands: readonly CommandSpec[]) {
    for (const c of commands) {
      if (c.short !== null) this.byShort.set(c.short, c);
      this.byLong.set(c.name, c);
    }
  }

  /** A command by how a client wrote it: 'f', '\get_freq', or a long-only word such as 'AOS'. */
  lookup(word: string): CommandSpec | null {
    if (word.startsWith('\\')) return this.byLong.get(word.slice(1)) ?? null;
    if (word.length === 1) return this.byShort.get(word) ?? null;
    const spec = this.byLong.get(word);
    return spec && spec.short === null ? spec : null; // bare long names only for commands that have no short one
  }

  byName(name: string): CommandSpec | null {
    return this.byLong.get(name) ?? null;
  }
}

export function parseRequestLine(line: string, table: CommandTable, opts: LineParseOptions): ParsedLine {
  let text = line.replace(/[\r\n]+$/, '').trim();
  if (text === '' || text.startsWith('#')) return { kind: 'silent' };

  let ext: ExtPrefix | null = null;
  if (EXT_PREFIXES.has(text[0])) {
    ext = text[0] as ExtPrefix;
    text = text.slice(1).trimStart();
    if (text === '') return invalid(ext, null, null, [], HamlibError.EINVAL, 'a response prefix without a command');
  }

  const words = text.split(SPACE);
  const word = words[0];
  if (QUIT_WORDS.has(word)) return { kind: 'quit', ext };
  const spec = table.lookup(word);
  if (!spec) return invalid(ext, null, null, words.slice(1), HamlibError.EINVAL, `unknown command ${JSON.stringify(word)}`);

  let rest = words.slice(1);
  let vfo: HamlibVfo | null = null;
  const vfoFirst = spec.vfo && (opts.vfoOpt || (rest.length > spec.in.length && parseVfo(rest[0]) !== null));
  if (vfoFirst) {
    if (rest.length === 0) return invalid(ext, spec, null, rest, HamlibError.EINVAL, `${spec.name} needs a VFO first (vfo_opt is on)`);
    vfo = parseVfo(rest[0]);
    if (vfo === null) return invalid(ext, spec, null, rest, HamlibError.EINVAL, `${JSON.stringify(rest[0])} is no Hamlib VFO name`);
    rest = rest.slice(1);
  }
  if (rest.length < spec.in.length) {
    return invalid(ext, spec, vfo, rest, HamlibError.EINVAL, `${spec.name} needs ${spec.in.join(', ')}`);
  }
  return { kind: 'request', request: { ext, cmd: spec.name, spec, vfo, args: rest.slice(0, spec.in.length) } };
}

function invalid(ext: ExtPrefix | null, spec: CommandSpec | null, vfo: HamlibVfo | null, args: string[], code: HamlibErrorCode, reason: string): ParsedLine {
  return { kind: 'invalid', ext, spec, vfo, args, code, reason };
}
