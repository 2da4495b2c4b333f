/** How long an idle Codex app-server stays warm and how many stay warm, as the person set them for this host. */
export interface CodexLimits {
  readonly idleMs?: number;
  readonly maxWarm?: number;
}

/** Where the limits come from: the headless host's flags, else the environment (the desktop app reads only that). */
export interface CodexLimitSources {
  readonly idleMinutes?: string | undefined;
  readonly maxWarm?: string | undefined;
}

/**
 * Reads `--codex-idle-minutes` / `CAIRN_CODEX_IDLE_MINUTES` (a positive number of minutes; fractions
 * allowed) and `--codex-max-warm` / `CAIRN_CODEX_MAX_WARM` (a whole number ≥ 1). Unset means the
 * defaults (10 minutes, 4); a value that is not one of these is refused with what was wrong.
 */
export function codexLimitsFrom(flags: CodexLimitSources, env: NodeJS.ProcessEnv): CodexLimits {
  const idleText = flags.idleMinutes ?? env.CAIRN_CODEX_IDLE_MINUTES;
  const warmText = flags.maxWarm ?? env.CAIRN_CODEX_MAX_WARM;
  const limits: { idleMs?: number; maxWarm?: number } = {};
  if (idleText !== undefined && idleText.trim() !== '') {
    const minutes = Number(idleText);
    if (!Number.isFinite(minutes) || minutes <= 0)
      throw new Error(
        `--codex-idle-minutes (CAIRN_CODEX_IDLE_MINUTES) must be a number of minutes above 0, not "${idleText}"`,
      );
    limits.idleMs = Math.round(minutes * 60_000);
  }
  if (warmText !== undefined && warmText.trim() !== '') {
    const count = Number(warmText);
    if (!Number.isInteger(count) || count < 1)
      throw new Error(
        `--codex-max-warm (CAIRN_CODEX_MAX_WARM) must be a whole number of at least 1, not "${warmText}"`,
      );
    limits.maxWarm = count;
  }
  return limits;
}
