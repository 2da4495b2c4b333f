import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

const NO_REACH = 'This Cairn cannot open a listener for other devices here.';

export const deviceHandlers: HandlerTable<
  | 'device.list'
  | 'device.pairing.start'
  | 'device.pairing.cancel'
  | 'device.pairing.confirm'
  | 'device.rename'
  | 'device.revoke'
  | 'device.reach.set'
  | 'device.reach.regenerate'
  | 'device.hostName.set'
> = {
  'device.list': ({ devices }) => ok(devices.list()),
  'device.pairing.start': async ({ devices }) => ok(await devices.startPairing()),
  'device.pairing.cancel': ({ devices }) => ok({ cancelled: devices.cancelPairing() }),
  'device.pairing.confirm': ({ devices }, input) => {
    const answer = devices.confirmPairing(input.requestId, input.accept);
    return answer.found
      ? ok({ device: answer.device })
      : fail(
          'not_found',
          'No device is waiting to be paired with that request (it may have given up, or the code expired).',
        );
  },
  'device.rename': ({ devices }, input) => {
    const device = devices.rename(input.deviceId, input.name);
    return device === null ? fail('not_found', 'There is no paired device with that id.') : ok({ device });
  },
  'device.revoke': ({ devices }, input) =>
    devices.revoke(input.deviceId)
      ? ok({ deviceId: input.deviceId, revoked: true as const })
      : fail('not_found', 'There is no paired device with that id.'),
  'device.reach.set': async ({ devices }, input) => {
    if (devices.reach === null) return fail('operation_unavailable', NO_REACH);
    if ((input.certFile === undefined) !== (input.keyFile === undefined))
      return fail('invalid_input', 'Give both a certificate file and its key file, or neither.');
    if (input.enabled && input.address === undefined)
      return fail('invalid_input', 'Choose the address other devices reach this Cairn on.');
    return ok(await devices.reach.set(input));
  },
  'device.hostName.set': ({ devices }, input) => ok(devices.setHostName(input.name)),
  'device.reach.regenerate': async ({ devices }) => {
    if (devices.reach === null) return fail('operation_unavailable', NO_REACH);
    return ok(await devices.reach.regenerate());
  },
};
