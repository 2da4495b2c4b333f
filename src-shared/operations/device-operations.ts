import { z } from 'zod';
import type { DeviceSummary, HostName, PairingOffer, PairingRequest, ReachStatus } from '../device-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';

export interface DeviceListResult {
  readonly devices: readonly DeviceSummary[];
  /** The code on show, if any (without its QR), and a device waiting to be confirmed. */
  readonly pairing: {
    readonly code: string;
    readonly expiresAt: number;
    readonly request: PairingRequest | null;
  } | null;
  readonly reach: ReachStatus;
  readonly hostName: HostName;
}

const deviceId = wellFormedString().min(1).max(64);

/** Devices reaching this Cairn from elsewhere (docs/remote.md): pairing, the list, revoke, rename, and the listener they reach. */
export const deviceOperations = {
  'device.list': defineOperation<DeviceListResult>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  'device.pairing.start': defineOperation<PairingOffer>()({
    mode: 'command',
    input: z.strictObject({}),
    errors: ['device_forbidden'],
  }),
  'device.pairing.cancel': defineOperation<{ cancelled: boolean }>()({
    mode: 'command',
    input: z.strictObject({}),
    errors: ['device_forbidden'],
  }),
  'device.pairing.confirm': defineOperation<{ device: DeviceSummary | null }>()({
    mode: 'command',
    input: z.strictObject({ requestId: wellFormedString().min(1).max(64), accept: z.boolean() }),
    errors: ['not_found', 'device_forbidden'],
  }),
  'device.rename': defineOperation<{ device: DeviceSummary }>()({
    mode: 'command',
    input: z.strictObject({ deviceId, name: wellFormedString().trim().min(1).max(60) }),
    errors: ['not_found', 'device_forbidden'],
  }),
  'device.revoke': defineOperation<{ deviceId: string; revoked: true }>()({
    mode: 'command',
    input: z.strictObject({ deviceId }),
    errors: ['not_found', 'device_forbidden'],
  }),
  'device.reach.set': defineOperation<ReachStatus>()({
    mode: 'command',
    input: z.strictObject({
      enabled: z.boolean(),
      address: wellFormedString().min(1).max(64).optional(),
      /** A certificate and key the person provides (both or neither); Cairn's own otherwise. */
      certFile: wellFormedString().min(1).max(4096).optional(),
      keyFile: wellFormedString().min(1).max(4096).optional(),
    }),
    errors: ['invalid_input', 'operation_unavailable', 'device_forbidden'],
  }),
  /** The name windows show for this Cairn; '' goes back to the machine's own. */
  'device.hostName.set': defineOperation<HostName>()({
    mode: 'command',
    input: z.strictObject({ name: wellFormedString().trim().max(60) }),
    errors: ['device_forbidden'],
  }),
  'device.reach.regenerate': defineOperation<ReachStatus>()({
    mode: 'command',
    input: z.strictObject({}),
    errors: ['invalid_input', 'operation_unavailable', 'device_forbidden'],
  }),
} as const;
