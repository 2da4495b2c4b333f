/** Shapes of API keys that must never be repeated, even when a server echoes one we did not send. */
const KEY_PATTERNS: readonly RegExp[] = [/\bsk-[A-Za-z0-9_-]{8,}/g, /\bBearer\s+[A-Za-z0-9._~+/-]{8,}/gi];

/** `text` with every occurrence of `secrets` and of anything shaped like an API key replaced. */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret !== null && secret !== undefined && secret.length >= 4) result = result.split(secret).join('[redacted]');
  }
  for (const pattern of KEY_PATTERNS) result = result.replace(pattern, '[redacted]');
  return result;
}
