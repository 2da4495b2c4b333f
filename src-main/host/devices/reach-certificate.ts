import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';

/**
 * The certificate the listener other devices reach serves HTTPS with: one Cairn makes and keeps in
 * the data directory (self-signed, for the addresses it listens on), or one the person provides
 * (e.g. from `tailscale cert`). Either is checked before it is used — the key matches, it is valid
 * now — and a problem is an error that names it.
 */

export const REACH_CERT_FILE = 'reach-cert.pem';
export const REACH_KEY_FILE = 'reach-key.pem';
const VALID_DAYS = 397;

export interface ReachCertificate {
  readonly cert: string;
  readonly key: string;
  /** SHA-256 of the certificate, colon-separated hex, as browsers show it. */
  readonly fingerprint: string;
  readonly source: 'generated' | 'provided';
  /** ISO time the certificate expires. */
  readonly validTo: string;
  /** The DNS names it is for (a provided certificate's host names, which clients may use). */
  readonly dnsNames: readonly string[];
}

export class ReachCertificateError extends Error {}

/**
 * Cairn's own certificate for `address`: the kept one while it is valid and covers the address,
 * else a new one (also when `regenerate`). Devices stay paired: their credentials do not depend on it.
 */
export async function generatedCertificate(
  dataDir: string,
  options: { address: string; regenerate?: boolean; now?: () => number },
): Promise<ReachCertificate> {
  const now = options.now ?? Date.now;
  const certPath = join(dataDir, REACH_CERT_FILE);
  const keyPath = join(dataDir, REACH_KEY_FILE);
  if (options.regenerate !== true && existsSync(certPath) && existsSync(keyPath)) {
    try {
      const kept = checkedCertificate(
        readFileSync(certPath, 'utf8'),
        readFileSync(keyPath, 'utf8'),
        'generated',
        now(),
      );
      if (coversAddress(kept.cert, options.address)) return kept;
    } catch {
      // Expired, damaged or for another address: made anew below.
    }
  }
  const start = new Date(now() - 60_000);
  // The certificate library loads only when a certificate is made.
  const { generate } = await import('selfsigned');
  const made = await generate([{ name: 'commonName', value: 'Cairn' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: start,
    notAfterDate: new Date(start.getTime() + VALID_DAYS * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames:
          isIP(options.address) === 0 ? [{ type: 2, value: options.address }] : [{ type: 7, ip: options.address }],
      },
    ],
  });
  writeAtomically(keyPath, made.private, 0o600);
  writeAtomically(certPath, made.cert, 0o644);
  return checkedCertificate(made.cert, made.private, 'generated', now());
}

/** A certificate and key the person gave (`--cert`, `--key`): read and checked, or an error naming the problem. */
export function providedCertificate(certPath: string, keyPath: string, now: () => number = Date.now): ReachCertificate {
  return checkedCertificate(readPem(certPath, 'certificate'), readPem(keyPath, 'key'), 'provided', now(), {
    certPath,
    keyPath,
  });
}

function checkedCertificate(
  certText: string,
  keyText: string,
  source: ReachCertificate['source'],
  now: number,
  paths?: { certPath: string; keyPath: string },
): ReachCertificate {
  const where = paths === undefined ? '' : ` (${paths.certPath})`;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certText);
  } catch {
    throw new ReachCertificateError(`The certificate${where} is not a PEM certificate.`);
  }
  let matches: boolean;
  try {
    matches = cert.checkPrivateKey(createPrivateKey(keyText));
  } catch {
    throw new ReachCertificateError(
      `The key${paths === undefined ? '' : ` (${paths.keyPath})`} is not a PEM private key.`,
    );
  }
  if (!matches)
    throw new ReachCertificateError(
      `The certificate${where} does not match its key${paths === undefined ? '' : ` (${paths.keyPath})`}.`,
    );
  const validTo = new Date(cert.validTo);
  if (validTo.getTime() <= now)
    throw new ReachCertificateError(`The certificate${where} expired on ${validTo.toISOString().slice(0, 10)}.`);
  const validFrom = new Date(cert.validFrom);
  if (validFrom.getTime() > now)
    throw new ReachCertificateError(
      `The certificate${where} is not valid before ${validFrom.toISOString().slice(0, 10)}.`,
    );
  return {
    cert: certText,
    key: keyText,
    fingerprint: cert.fingerprint256,
    source,
    validTo: validTo.toISOString(),
    dnsNames: dnsNamesOf(cert),
  };
}

function coversAddress(certText: string, address: string): boolean {
  const names = (new X509Certificate(certText).subjectAltName ?? '').split(', ');
  return names.includes(`IP Address:${address}`) || names.includes(`DNS:${address}`);
}

function dnsNamesOf(cert: X509Certificate): string[] {
  return (cert.subjectAltName ?? '')
    .split(', ')
    .filter((name) => name.startsWith('DNS:'))
    .map((name) => name.slice(4))
    .filter((name) => /^[a-z0-9.-]+$/i.test(name));
}

function readPem(path: string, what: 'certificate' | 'key'): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ReachCertificateError(
      `Could not read the ${what} file ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    );
  }
}

function writeAtomically(path: string, text: string, mode: number): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode });
  renameSync(temp, path);
}
