import { X509Certificate, createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The sandbox cluster's certificates: a CA and a serving certificate for 127.0.0.1 and
// localhost, both ECDSA P-256. Node 20's crypto signs but cannot build X.509 certificates,
// and no X.509 library is installed, so the few DER structures needed are encoded here
// (RFC 5280) and signed with node:crypto. Files live in <storageDir>/sandbox-cluster/ and are
// reused on restart, so downloaded kubeconfigs (which carry the CA) keep working.

export interface SandboxCertificates {
  caPem: string;
  caKeyPem: string;
  certPem: string;
  keyPem: string;
}

// ---------------------------------------------------------------------------------------
// DER

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const octets = (content: Buffer) => tlv(0x04, content);
const bits = (content: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), content]));
const bool = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);

function integer(value: Buffer | number): Buffer {
  let bytes = typeof value === 'number' ? Buffer.from([value]) : value;
  while (bytes.length > 1 && bytes[0] === 0 && (bytes[1] & 0x80) === 0) bytes = bytes.subarray(1);
  if (bytes[0] & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [parts[0] * 40 + parts[1]];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z'; // YYYYMMDDHHMMSSZ
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2), 'ascii')) : tlv(0x18, Buffer.from(iso, 'ascii'));
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

const name = (commonName: string, organization?: string) =>
  seq(
    ...(organization ? [set(seq(oid(OID.organization), utf8(organization)))] : []),
    set(seq(oid(OID.commonName), utf8(commonName))),
  );

const extension = (id: string, critical: boolean, value: Buffer) =>
  seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

interface CertificateSpec {
  subject: Buffer;
  issuer: Buffer;
  publicKey: KeyObject;
  signingKey: KeyObject;
  days: number;
  extensions: Buffer[];
}

function certificate(spec: CertificateSpec): string {
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) | 0x01;
  const now = Date.now();
  const algorithm = seq(oid(OID.ecdsaWithSha256));
  const tbs = seq(
    explicit(0, integer(2)),
    integer(serial),
    algorithm,
    spec.issuer,
    seq(time(new Date(now - 3600_000)), time(new Date(now + spec.days * 86400_000))),
    spec.subject,
    spec.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(...spec.extensions)),
  );
  const signature = sign('sha256', tbs, spec.signingKey); // DER-encoded ECDSA signature
  const der = seq(tbs, algorithm, bits(signature));
  const base64 = der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`;
}

const keyId = (key: KeyObject) => createHash('sha1').update(key.export({ type: 'spki', format: 'der' })).digest();

function ipAddress(ip: string): Buffer {
  return Buffer.from(ip.split('.').map(Number));
}

// ---------------------------------------------------------------------------------------

/** A fresh CA plus a serving certificate for the given DNS names and IPv4 addresses. */
export function createCertificates(hosts: { dns: string[]; ips: string[] } = { dns: ['localhost'], ips: ['127.0.0.1'] }): SandboxCertificates {
  const ca = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const caName = name('testbed-sandbox-ca', 'Testbed Console sandbox');
  const caPem = certificate({
    subject: caName,
    issuer: caName,
    publicKey: ca.publicKey,
    signingKey: ca.privateKey,
    days: 3650,
    extensions: [
      extension(OID.basicConstraints, true, seq(bool(true))),
      extension(OID.keyUsage, true, bits(Buffer.from([0x86]), 1)), // digitalSignature, keyCertSign, cRLSign
      extension(OID.subjectKeyIdentifier, false, octets(keyId(ca.publicKey))),
    ],
  });
  return { caPem, caKeyPem: ca.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, ...serving(ca.privateKey, caPem, hosts) };
}

function serving(caKey: KeyObject, caPem: string, hosts: { dns: string[]; ips: string[] }) {
  const server = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const caCert = new X509Certificate(caPem);
  const san = seq(
    ...hosts.dns.map((dns) => tlv(0x82, Buffer.from(dns, 'ascii'))),
    ...hosts.ips.map((ip) => tlv(0x87, ipAddress(ip))),
  );
  const certPem = certificate({
    subject: name('sandbox-apiserver'),
    issuer: name('testbed-sandbox-ca', 'Testbed Console sandbox'),
    publicKey: server.publicKey,
    signingKey: caKey,
    days: 825,
    extensions: [
      extension(OID.basicConstraints, true, seq()),
      extension(OID.keyUsage, true, bits(Buffer.from([0xa0]), 5)), // digitalSignature, keyEncipherment
      extension(OID.extKeyUsage, false, seq(oid(OID.serverAuth))),
      extension(OID.subjectAltName, false, san),
      extension(OID.authorityKeyIdentifier, false, seq(tlv(0x80, keyId(caCert.publicKey)))),
    ],
  });
  return { certPem, keyPem: server.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}

const FILES = { caPem: 'ca.crt', caKeyPem: 'ca.key', certPem: 'server.crt', keyPem: 'server.key' } as const;

/**
 * The certificates kept in `dir` (normally <storageDir>/sandbox-cluster), created on first
 * use. The CA is reused as long as its files exist; the serving certificate is renewed from
 * the same CA when missing or within 30 days of expiry.
 */
export function loadOrCreateCertificates(dir: string, serverNames: string[] = []): SandboxCertificates {
  const hosts = servingHosts(serverNames);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = (file: string) => join(dir, file);
  const write = (certs: Partial<SandboxCertificates>) => {
    for (const [key, file] of Object.entries(FILES)) {
      const value = certs[key as keyof SandboxCertificates];
      if (value) writeFileSync(path(file), value, { mode: file.endsWith('.key') ? 0o600 : 0o644 });
    }
  };
  if (!existsSync(path(FILES.caPem)) || !existsSync(path(FILES.caKeyPem))) {
    const fresh = createCertificates(hosts);
    write(fresh);
    return fresh;
  }
  const caPem = readFileSync(path(FILES.caPem), 'utf8');
  const caKeyPem = readFileSync(path(FILES.caKeyPem), 'utf8');
  let certPem = existsSync(path(FILES.certPem)) ? readFileSync(path(FILES.certPem), 'utf8') : '';
  let keyPem = existsSync(path(FILES.keyPem)) ? readFileSync(path(FILES.keyPem), 'utf8') : '';
  const renew =
    !certPem ||
    !keyPem ||
    Date.parse(new X509Certificate(certPem).validTo) - Date.now() < 30 * 86400_000 ||
    !covers(new X509Certificate(certPem), hosts);
  if (renew) {
    ({ certPem, keyPem } = serving(createPrivateKey(caKeyPem), caPem, hosts));
    write({ certPem, keyPem });
  }
  return { caPem, caKeyPem, certPem, keyPem };
}

/** localhost and 127.0.0.1, plus the names and IPv4 addresses a standalone sandbox is reached by. */
function servingHosts(serverNames: string[]): { dns: string[]; ips: string[] } {
  const dns = new Set(['localhost']);
  const ips = new Set(['127.0.0.1']);
  for (const name of serverNames) {
    if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) ips.add(name);
    else if (name) dns.add(name.toLowerCase());
  }
  return { dns: [...dns], ips: [...ips] };
}

/** Whether a serving certificate names every host asked for (else it is issued again). */
function covers(certificate: X509Certificate, hosts: { dns: string[]; ips: string[] }): boolean {
  const names = new Set((certificate.subjectAltName ?? '').split(', '));
  return hosts.dns.every((dns) => names.has(`DNS:${dns}`)) && hosts.ips.every((ip) => names.has(`IP Address:${ip}`));
}
