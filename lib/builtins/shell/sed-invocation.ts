import { literalWord, type ShellWord } from './shell-word';

/**
 * What a `sed` command line does beyond editing the files it names: `risk` says why it may run commands, read or
 * write other files, or cannot be known before it runs (undefined for a safe invocation); `files` are its file
 * operands. Judged from GNU sed's manual (https://www.gnu.org/software/sed/manual/sed.html, "Command-Line Options"
 * and "sed scripts"), which busybox and BSD sed follow for the commands accepted here.
 */
export interface SedInvocation {
  readonly risk: string | undefined;
  readonly files: readonly ShellWord[];
}

/** Options without an argument that change nothing outside the named files. */
const FLAG_LETTERS = new Set(['n', 'r', 'E', 's', 'u', 'z']);
const LONG_FLAGS = new Set([
  '--quiet', '--silent', '--regexp-extended', '--separate', '--unbuffered', '--null-data', '--zero-terminated',
  '--posix', '--sandbox', '--debug', '--follow-symlinks', '--binary', '--help', '--version',
]);

/**
 * Reads a sed command line (`words` after the program name): scripts from `-e`/`--expression` or the first operand,
 * and every script is checked by {@link sedScriptRisk}. A script from a file (`-f`), an unknown option, a script or
 * option that is only known at run time, or an in-place backup suffix naming a folder (`-i'bak/*'` writes the backup
 * elsewhere) makes the invocation risky.
 */
export function sedInvocation(words: readonly ShellWord[]): SedInvocation {
  const scripts: ShellWord[] = [];
  const operands: ShellWord[] = [];
  let risk: string | undefined;
  const flag = (why: string) => (risk ??= why);
  let options = true;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!options || !w.text.startsWith('-') || w.text === '-') {
      operands.push(w);
      continue;
    }
    if (!w.literal) {
      flag(`the option ${w.text} is only known when it runs`);
      continue;
    }
    if (w.text === '--') {
      options = false;
      continue;
    }
    if (w.text.startsWith('--')) {
      const [name, value] = splitLong(w.text);
      if (name === '--expression') {
        const script = value ?? words[++i];
        if (script === undefined) flag('--expression has no script');
        else scripts.push(script);
      } else if (name === '--file') flag('the script is read from a file');
      else if (name === '--in-place') {
        if (value !== undefined && value.text.includes('/')) flag(`the backup suffix ${value.text} writes into another folder`);
      } else if (name === '--line-length') {
        if (value === undefined) i++;
      } else if (!LONG_FLAGS.has(name)) flag(`the option ${name} is not known to be safe`);
      continue;
    }
    // A cluster of short options: flags, then at most one option that takes the rest of the word (or the next word).
    for (let j = 1; j < w.text.length; j++) {
      const letter = w.text[j]!;
      const rest = w.text.slice(j + 1);
      if (FLAG_LETTERS.has(letter)) continue;
      if (letter === 'e') {
        const script = rest !== '' ? literalWord(rest) : words[++i];
        if (script === undefined) flag('-e has no script');
        else scripts.push(script);
      } else if (letter === 'f') flag('the script is read from a file');
      else if (letter === 'i') {
        if (rest.includes('/')) flag(`the backup suffix ${rest} writes into another folder`);
      } else if (letter === 'l') {
        if (rest === '') i++;
      } else flag(`the option -${letter} is not known to be safe`);
      break;
    }
  }
  if (scripts.length === 0) {
    const script = operands.shift();
    if (script === undefined) flag('it has no script');
    else scripts.push(script);
  }
  for (const script of scripts) {
    if (!script.literal) flag('its script is only known when it runs');
    else {
      const scriptRisk = sedScriptRisk(script.text);
      if (scriptRisk !== undefined) flag(scriptRisk);
    }
  }
  return { risk, files: operands };
}

function splitLong(text: string): [string, ShellWord | undefined] {
  const eq = text.indexOf('=');
  return eq < 0 ? [text, undefined] : [text.slice(0, eq), literalWord(text.slice(eq + 1))];
}

/** Commands that only edit the pattern and hold spaces or control the flow. */
const PLAIN_COMMANDS = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
/** Commands followed by an optional number (`l`: line length; `q`/`Q`: exit code). */
const NUMBER_COMMANDS = new Set(['l', 'q', 'Q']);
/** Commands followed by an optional label (branches) or a required one (`:`). */
const LABEL_COMMANDS = new Set(['b', 't', 'T', ':', 'v']);
/** Commands followed by text to the end of the line. */
const TEXT_COMMANDS = new Set(['a', 'i', 'c']);
const SAFE_S_FLAGS = /^[gpiImM0-9]$/;

const WHY: Readonly<Record<string, string>> = {
  e: 'its script runs a command (e)',
  r: 'its script reads another file (r)',
  R: 'its script reads another file (R)',
  w: 'its script writes another file (w)',
  W: 'its script writes another file (W)',
};

/**
 * Why a sed script is not safe, or undefined when every command only edits text: addresses, `{}`, `!`, `s` with the
 * flags `g`, `p`, `i`/`I`, `m`/`M` and a number, `y`, `a`/`i`/`c` text, branches and labels, and the commands that
 * print or move text between the spaces. `e`, `r`, `R`, `w`, `W`, the `e` and `w` flags of `s`, and anything this
 * parser does not know are refused (fail closed).
 */
export function sedScriptRisk(script: string): string | undefined {
  const s = script;
  let i = 0;
  const skip = (chars: string) => {
    while (i < s.length && chars.includes(s[i]!)) i++;
  };
  const toLineEnd = () => {
    while (i < s.length && s[i] !== '\n') i += s[i] === '\\' ? 2 : 1;
  };
  /** Reads a delimited part (`s`, `y`, a regex address) up to the unescaped delimiter; false if unterminated. */
  const delimited = (delimiter: string): boolean => {
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') i += 2;
      else if (c === delimiter) {
        i++;
        return true;
      } else if (c === '\n') return false;
      else i++;
    }
    return false;
  };
  const address = (): boolean => {
    const c = s[i];
    if (c === undefined) return true;
    if (/[0-9]/.test(c)) {
      skip('0123456789');
      if (s[i] === '~') {
        i++;
        skip('0123456789');
      }
    } else if (c === '$') i++;
    else if (c === '/' || c === '\\') {
      const delimiter = c === '/' ? '/' : s[i + 1];
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return false;
      i += c === '/' ? 1 : 2;
      if (!delimited(delimiter)) return false;
      skip('IM');
    }
    return true;
  };
  while (i < s.length) {
    skip(' \t\n;');
    if (i >= s.length) break;
    if (s[i] === '#') {
      toLineEnd();
      continue;
    }
    if (!address()) return 'its script cannot be read';
    skip(' \t');
    if (s[i] === ',') {
      i++;
      skip(' \t');
      if (s[i] === '+' || s[i] === '~') {
        i++;
        skip('0123456789');
      } else if (!address()) return 'its script cannot be read';
    }
    skip(' \t!');
    const command = s[i];
    if (command === undefined) return 'its script cannot be read';
    i++;
    if (command === '{' || command === '}') continue;
    if (WHY[command] !== undefined) return WHY[command];
    if (PLAIN_COMMANDS.has(command)) {
      // nothing follows
    } else if (NUMBER_COMMANDS.has(command)) {
      skip(' \t');
      skip('0123456789');
    } else if (LABEL_COMMANDS.has(command)) {
      while (i < s.length && s[i] !== '\n' && s[i] !== ';') i++;
      continue;
    } else if (TEXT_COMMANDS.has(command)) {
      toLineEnd();
      continue;
    } else if (command === 's' || command === 'y') {
      const delimiter = s[i];
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return 'its script cannot be read';
      i++;
      if (!delimited(delimiter) || !delimited(delimiter)) return 'its script cannot be read';
      if (command === 's') {
        while (i < s.length && !' \t\n;}#'.includes(s[i]!)) {
          const flag = s[i]!;
          if (flag === 'e') return 'its script runs a command (the e flag of s)';
          if (flag === 'w') return 'its script writes another file (the w flag of s)';
          if (!SAFE_S_FLAGS.test(flag)) return `its script has an unknown s flag ${flag}`;
          i++;
        }
      }
    } else return `its script has a command sed may run differently (${command})`;
    skip(' \t');
    if (i < s.length && !'\n;}#'.includes(s[i]!)) return 'its script cannot be read';
  }
  return undefined;
}
