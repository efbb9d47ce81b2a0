/** Positional arguments and `--flag value` / `--flag=value` options of an operator command. */
export interface ParsedArgs {
  positional: string[];
  options: Map<string, string>;
}

export class UsageError extends Error {}

/** Parses args, accepting only the listed options (each takes a value). */
export function parseArgs(args: readonly string[], allowed: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [flag = '', inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (!allowed.includes(flag)) throw new UsageError(`Opción desconocida: --${flag}`);
    const value = inline ?? args[++i];
    if (value === undefined || value === '') throw new UsageError(`La opción --${flag} necesita un valor.`);
    options.set(flag, value);
  }
  return { positional, options };
}

/** Exactly one positional argument, else a usage error naming it. */
export function onePositional(parsed: ParsedArgs, what: string): string {
  if (parsed.positional.length !== 1) throw new UsageError(`Indica ${what}.`);
  return parsed.positional[0] as string;
}

/** A whole number option within bounds, or the fallback when absent. */
export function integerOption(
  parsed: ParsedArgs,
  flag: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const text = parsed.options.get(flag);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(`--${flag} debe ser un número entero de ${min} a ${max}.`);
  }
  return value;
}
