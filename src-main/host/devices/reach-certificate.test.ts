import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../testing/host-fixture';
import { checkListenAddress } from './listen-address';
import { generatedCertificate, providedCertificate } from './reach-certificate';

const dir = useTempDirs();

describe('the reach certificate', () => {
  it('is made once for the address and kept; regenerating makes a new one', async () => {
    const dataDir = dir();
    const first = await generatedCertificate(dataDir, { address: '127.0.0.2' });
    expect(first.source).toBe('generated');
    expect((await generatedCertificate(dataDir, { address: '127.0.0.2' })).fingerprint).toBe(first.fingerprint);
    expect((await generatedCertificate(dataDir, { address: '127.0.0.2', regenerate: true })).fingerprint).not.toBe(
      first.fingerprint,
    );
    expect((await generatedCertificate(dataDir, { address: '127.0.0.3' })).fingerprint).not.toBe(first.fingerprint);
  });

  it('checks a provided certificate: a key that does not match, an expired one, an unreadable file are errors naming the problem', async () => {
    const dataDir = dir();
    const one = await generate([{ name: 'commonName', value: 'a' }], { keyType: 'ec', curve: 'P-256' });
    const other = await generate([{ name: 'commonName', value: 'b' }], { keyType: 'ec', curve: 'P-256' });
    const old = await generate([{ name: 'commonName', value: 'c' }], {
      keyType: 'ec',
      curve: 'P-256',
      notBeforeDate: new Date('2020-01-01'),
      notAfterDate: new Date('2021-01-01'),
    });
    const file = (name: string, text: string) => {
      const path = join(dataDir, name);
      writeFileSync(path, text);
      return path;
    };
    expect(providedCertificate(file('one.crt', one.cert), file('one.key', one.private)).source).toBe('provided');
    expect(() => providedCertificate(file('one.crt', one.cert), file('other.key', other.private))).toThrow(
      /does not match its key/,
    );
    expect(() => providedCertificate(file('old.crt', old.cert), file('old.key', old.private))).toThrow(
      /expired on 2021-01-01/,
    );
    expect(() => providedCertificate(join(dataDir, 'missing.crt'), file('one.key', one.private))).toThrow(
      /Could not read the certificate file .*missing\.crt/,
    );
  });

  it('listens only on an address of this machine', () => {
    const interfaces = {
      lo: [
        {
          address: '127.0.0.1',
          family: 'IPv4' as const,
          internal: true,
          netmask: '255.0.0.0',
          mac: '',
          cidr: '127.0.0.1/8',
        },
      ],
    };
    expect(checkListenAddress('127.0.0.2', interfaces)).toBe('127.0.0.2');
    expect(() => checkListenAddress('192.0.2.1', interfaces)).toThrow(/192\.0\.2\.1 is not an address of this machine/);
    expect(() => checkListenAddress('phone.local', interfaces)).toThrow(/needs an IP address/);
  });
});
