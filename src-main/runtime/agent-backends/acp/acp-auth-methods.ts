import { basename } from 'node:path';
import type { AcpAuthMethod } from '../../../../src-shared/acp-login-model';
import type { AcpAgentCommand } from '../../../../src-shared/connection-model';
import { isCairnVariable } from '../../shell/child-environment';

/** The ways an agent declares to sign in (`initialize`'s `authMethods`), read as untrusted input, and how a terminal sign-in is run. */

const MAX_METHODS = 20;
const clip = (text: string, length: number) => text.slice(0, length);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const strings = (value: unknown, max: number): string[] =>
  Array.isArray(value)
    ? value
        .filter((item): item is string => typeof item === 'string')
        .slice(0, max)
        .map((item) => clip(item, 1000))
    : [];

/**
 * `authMethods` as the agent sent them: a method without `type` is `agent` (ACP's default); `terminal`
 * with its `args` (env is read when it is run); `env_var` (not yet in ACP's stable schema) with the
 * names of its `vars`. Anything malformed or of an unknown type is left out.
 */
export function authMethodsOf(raw: unknown): AcpAuthMethod[] {
  if (!Array.isArray(raw)) return [];
  const methods: AcpAuthMethod[] = [];
  for (const entry of raw.slice(0, MAX_METHODS)) {
    if (!isRecord(entry) || typeof entry.id !== 'string' || typeof entry.name !== 'string' || entry.id === '') continue;
    const type = entry.type ?? 'agent';
    if (type !== 'agent' && type !== 'terminal' && type !== 'env_var') continue;
    methods.push({
      id: clip(entry.id, 200),
      name: clip(entry.name, 200),
      description: typeof entry.description === 'string' ? clip(entry.description, 500) : null,
      kind: type,
      args: type === 'terminal' ? strings(entry.args, 50) : [],
      vars:
        type === 'env_var' && Array.isArray(entry.vars)
          ? entry.vars.flatMap((item) =>
              isRecord(item) && typeof item.name === 'string' ? [clip(item.name, 200)] : [],
            )
          : [],
    });
  }
  return methods;
}

/** The variables a terminal method asks for, as the agent sent them (none of Cairn's own `CAIRN_*`). */
export function terminalMethodEnv(raw: unknown, methodId: string): Record<string, string> {
  if (!Array.isArray(raw)) return {};
  const entry: unknown = raw.find((item) => isRecord(item) && item.id === methodId);
  if (!isRecord(entry) || !isRecord(entry.env)) return {};
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.env))
    if (typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !isCairnVariable(name)) env[name] = value;
  return env;
}

/** Interpreters whose first argument that is not an option is the agent's script (part of its program). */
const INTERPRETERS = /^(node|nodejs|bun|deno|python[0-9.]*|npx|uvx|pnpx)$/;
/** Their options that take the next argument as their value. */
const OPTIONS_WITH_VALUE = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '-m',
  '--package',
]);

/**
 * The command line of a terminal sign-in: the agent's program, with the method's arguments in place
 * of the agent's own (ACP's registry: they replace the default arguments). The program is the command,
 * and for an interpreter (`node`, `python`, `npx`, …) its options and the script or package it runs:
 * `node --import tsx agent.ts --acp` with `["--login"]` runs `node --import tsx agent.ts --login`.
 */
export function loginCommandLine(
  command: Pick<AcpAgentCommand, 'command' | 'args'>,
  methodArgs: readonly string[],
): string[] {
  const program = [command.command];
  if (INTERPRETERS.test(basename(command.command))) {
    for (let index = 0; index < command.args.length; index += 1) {
      const arg = command.args[index] ?? '';
      program.push(arg);
      if (OPTIONS_WITH_VALUE.has(arg)) {
        index += 1;
        if (index < command.args.length) program.push(command.args[index] ?? '');
        if (arg === '-m') break;
        continue;
      }
      if (!arg.startsWith('-')) break;
    }
  }
  return [...program, ...methodArgs];
}

/** Whether an agent's error is ACP's `auth_required` (-32000): the agent wants the person to sign in first. */
export function isAuthRequired(error: unknown): boolean {
  return isRecord(error) && error.code === -32000;
}
