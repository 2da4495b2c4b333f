import { isIP } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

export class ListenAddressError extends Error {}

/**
 * Checks that `address` is one this machine can listen on: an address of one of its interfaces, or
 * any address of the loopback network (127.0.0.0/8, which Linux answers as a whole). Anything else —
 * a host name, another machine's address — is an error naming the addresses there are.
 */
export function checkListenAddress(
  address: string,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string {
  const all = Object.values(interfaces).flatMap((list) => list ?? []);
  if (isIP(address) === 0)
    throw new ListenAddressError(
      `--listen needs an IP address of this machine, not "${address}". Addresses here: ${describe(all)}.`,
    );
  const own =
    all.some((info) => info.address === address) ||
    (/^127\./.test(address) && all.some((info) => info.internal && info.family === 'IPv4'));
  if (!own)
    throw new ListenAddressError(`${address} is not an address of this machine. Addresses here: ${describe(all)}.`);
  return address;
}

/** This machine's addresses other devices might reach it on (for the address choice in Settings). */
export function reachableAddresses(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  return Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((info) => !info.internal && !(info.family === 'IPv6' && info.address.startsWith('fe80')))
    .map((info) => info.address);
}

function describe(all: readonly NetworkInterfaceInfo[]): string {
  return all.map((info) => info.address).join(', ') || 'none';
}
