import type { ReachStatus } from '../../../src-shared/device-model';
import type { Logger } from '../../runtime/ports/ports';
import type { Host } from '../create-host';
import type { ReachControl } from '../devices/device-registry';
import { checkListenAddress, ListenAddressError, reachableAddresses } from '../devices/listen-address';
import {
  generatedCertificate,
  providedCertificate,
  ReachCertificateError,
  type ReachCertificate,
} from '../devices/reach-certificate';
import { readReachSettings, saveReachSettings, type ReachSettings } from '../devices/reach-settings';
import { startWebSocketTransport, type WebSocketTransport } from './websocket-transport';

export interface ReachListenerOptions {
  readonly host: Host;
  readonly token: string;
  readonly dataDir: string;
  readonly staticDir: string | null;
  readonly logger: Logger;
  /** `--listen` (with `--cert`/`--key`): opened for this run, instead of what Settings keep. */
  readonly commandLine?: { readonly address: string; readonly certFile?: string; readonly keyFile?: string } | null;
  /** Port for the reach listener: the one used last time by default. */
  readonly port?: number | 'remembered';
}

export interface ReachListener extends ReachControl {
  close(): Promise<void>;
}

/**
 * The second listener, for other devices: HTTPS/WSS only, on an address of this machine the person
 * chose (Settings → Devices, or `--listen`), with Cairn's own certificate or theirs. Off unless asked
 * for. A problem (not an address here, a certificate that does not match its key or has expired)
 * leaves it closed with the problem in its status — the loopback listener serves on.
 */
export async function startReachListener(options: ReachListenerOptions): Promise<ReachListener> {
  const { logger } = options;
  let transport: WebSocketTransport | null = null;
  let certificate: ReachCertificate | null = null;
  let current: ReachSettings = options.commandLine
    ? {
        enabled: true,
        address: options.commandLine.address,
        certFile: options.commandLine.certFile ?? null,
        keyFile: options.commandLine.keyFile ?? null,
      }
    : readReachSettings(options.dataDir);
  const source: ReachStatus['source'] = options.commandLine ? 'command_line' : 'settings';
  let problem: string | null = null;

  const status = (): ReachStatus => ({
    listening: transport !== null,
    origin: transport?.origin ?? null,
    address: current.address,
    source: current.enabled ? source : null,
    certificate:
      certificate === null
        ? null
        : { fingerprint: certificate.fingerprint, source: certificate.source, validTo: certificate.validTo },
    problem,
    addresses: reachableAddresses(),
    available: true,
  });

  const open = async (regenerate: boolean): Promise<void> => {
    await closeTransport();
    problem = null;
    if (!current.enabled || current.address === null) return;
    try {
      const address = checkListenAddress(current.address);
      certificate =
        current.certFile !== null && current.keyFile !== null
          ? providedCertificate(current.certFile, current.keyFile)
          : await generatedCertificate(options.dataDir, { address, regenerate });
      transport = await startWebSocketTransport({
        host: options.host,
        token: options.token,
        port: options.port ?? 'remembered',
        portMemory: { dataDir: options.dataDir, name: 'reach' },
        address,
        tls: { cert: certificate.cert, key: certificate.key },
        hostNames: certificate.dnsNames,
        logger,
        staticDir: options.staticDir,
      });
      logger.info('Other devices can reach this Cairn', {
        origin: transport.origin,
        fingerprint: certificate.fingerprint,
      });
    } catch (error) {
      problem = describe(error, current.address);
      logger.error(`Cannot open the listener for other devices: ${problem} Cairn stays on 127.0.0.1.`);
    }
  };
  const closeTransport = async () => {
    const open = transport;
    transport = null;
    await open?.close();
  };

  await open(false);

  return {
    status,
    async set(settings) {
      current = {
        enabled: settings.enabled,
        address: settings.address ?? current.address,
        certFile: settings.certFile ?? null,
        keyFile: settings.keyFile ?? null,
      };
      saveReachSettings(options.dataDir, current);
      await open(false);
      return status();
    },
    async regenerate() {
      await open(true);
      return status();
    },
    close: closeTransport,
  };
}

function describe(error: unknown, address: string): string {
  if (error instanceof ListenAddressError || error instanceof ReachCertificateError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRNOTAVAIL') return `${address} is not an address of this machine.`;
  if (code === 'EADDRINUSE') return `The port is taken on ${address}.`;
  if (code === 'EACCES') return `Not allowed to listen on ${address} with that port.`;
  return error instanceof Error ? error.message : String(error);
}
