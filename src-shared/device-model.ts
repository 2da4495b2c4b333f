/** A paired device as the host lists it (its credential stays on the host, hashed). */
export interface DeviceSummary {
  readonly deviceId: string;
  readonly name: string;
  readonly firstPairedAt: number;
  readonly lastSeenAt: number | null;
  /** The address it last connected from. */
  readonly lastAddress: string | null;
  /** Sockets open now. */
  readonly connected: number;
}

/** A pairing code on show: valid until `expiresAt`, for one device. */
export interface PairingOffer {
  readonly code: string;
  readonly expiresAt: number;
  /** The address a device opens: the page with the code in the fragment. */
  readonly url: string;
  /** The QR code of `url`, as SVG markup made by the host. */
  readonly qrSvg: string;
}

/** A device proved the code and waits for the desktop to say "Pair <name>?". */
export interface PairingRequest {
  readonly requestId: string;
  readonly deviceName: string;
  readonly address: string;
}

export interface ReachStatus {
  /** Whether the listener other devices reach is open. */
  readonly listening: boolean;
  /** Its address to open (https://…), when listening. */
  readonly origin: string | null;
  readonly address: string | null;
  /** Chosen in Settings (kept), or given with --listen for this run. */
  readonly source: 'settings' | 'command_line' | null;
  readonly certificate: {
    readonly fingerprint: string;
    readonly source: 'generated' | 'provided';
    readonly validTo: string;
  } | null;
  /** Why it could not open, in words, when it was asked to and did not. */
  readonly problem: string | null;
  /** Addresses of this machine other devices might reach. */
  readonly addresses: readonly string[];
  /** Whether this host can open such a listener at all (false where no transport is attached). */
  readonly available: boolean;
}

/** The name windows show for this Cairn ("on workstation"): chosen in Settings → Devices, else the machine's. */
export interface HostName {
  readonly name: string;
  /** Whether the person chose it (else it is `machineName`). */
  readonly custom: boolean;
  /** This machine's own name (os.hostname()). */
  readonly machineName: string;
}

/** Who made a call, for attribution ("answered from Pixel 9"); absent for the desktop itself. */
export interface DeviceIdentity {
  readonly deviceId: string;
  readonly name: string;
}
