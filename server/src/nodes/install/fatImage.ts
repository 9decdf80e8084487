import { createHash } from 'node:crypto';

// A FAT12 volume built in memory: the 1.44 MB floppy geometry (2880 sectors of 512 bytes, one
// sector per cluster), a volume label in the boot sector and in the root directory, and files
// in the root directory with VFAT long names. Enough for a cloud-init NoCloud seed, which any
// Linux reads without extra drivers; no root tools, no packages.

export interface FatFile {
  /** The long (VFAT) name, e.g. `user-data`. */
  name: string;
  content: Buffer;
}

export interface FatImageInput {
  /** Up to 11 characters from A–Z, 0–9, space and - _ (stored uppercase). */
  label: string;
  files: FatFile[];
  /** Timestamp of the label and the files; defaults to now. Stored as UTC. */
  modifiedAt?: Date;
}

const SECTOR = 512;
const TOTAL_SECTORS = 2880;
const RESERVED_SECTORS = 1;
const FAT_COUNT = 2;
const SECTORS_PER_FAT = 9;
const ROOT_ENTRIES = 224;
const MEDIA = 0xf0;
const DIR_ENTRY = 32;
const ROOT_DIR_SECTORS = (ROOT_ENTRIES * DIR_ENTRY) / SECTOR;
const FIRST_DATA_SECTOR = RESERVED_SECTORS + FAT_COUNT * SECTORS_PER_FAT + ROOT_DIR_SECTORS;
const DATA_CLUSTERS = TOTAL_SECTORS - FIRST_DATA_SECTOR;
const END_OF_CHAIN = 0xfff;

const ATTR_ARCHIVE = 0x20;
const ATTR_VOLUME_ID = 0x08;
const ATTR_LONG_NAME = 0x0f;
const LFN_CHARS = 13;

/** Characters allowed in an 8.3 short name besides A–Z and 0–9. */
const SHORT_NAME_EXTRA = "!#$%&'()-@^_`{}~";

function isShortNameChar(char: string): boolean {
  return /^[A-Z0-9]$/.test(char) || SHORT_NAME_EXTRA.includes(char);
}

/** The 11-byte 8.3 name (base padded to 8, extension to 3), as stored in a directory entry. */
function padShortName(base: string, extension: string): string {
  return base.padEnd(8, ' ') + extension.padEnd(3, ' ');
}

/**
 * The short name for a long name, as Windows and Linux derive it: the name itself when it is a
 * valid uppercase 8.3 name, else the first six usable characters of the base, `~N`, and the
 * first three of the extension (`user-data` → `USER-D~1`).
 */
export function shortNameFor(longName: string, taken: Set<string>): { shortName: string; needsLongName: boolean } {
  const dot = longName.lastIndexOf('.');
  const base = dot > 0 ? longName.slice(0, dot) : longName;
  const extension = dot > 0 ? longName.slice(dot + 1) : '';
  const exact = base.length <= 8 && extension.length <= 3 && [...base + extension].every(isShortNameChar);
  if (exact) {
    const shortName = padShortName(base, extension);
    if (!taken.has(shortName)) return { shortName, needsLongName: false };
  }
  const clean = (text: string) => [...text.toUpperCase()].filter((c) => c !== ' ' && c !== '.').map((c) => (isShortNameChar(c) ? c : '_')).join('');
  const cleanBase = clean(base) || '_';
  const cleanExtension = clean(extension).slice(0, 3);
  for (let n = 1; n < 1_000_000; n++) {
    const tail = `~${n}`;
    const shortName = padShortName(cleanBase.slice(0, 8 - tail.length) + tail, cleanExtension);
    if (!taken.has(shortName)) return { shortName, needsLongName: true };
  }
  throw new Error(`No free short name for ${longName}`);
}

/** The checksum of a short name that every long-name entry of the file carries. */
export function shortNameChecksum(shortName: string): number {
  let sum = 0;
  for (let i = 0; i < 11; i++) sum = (((sum & 1) << 7) + (sum >> 1) + shortName.charCodeAt(i)) & 0xff;
  return sum;
}

function fatDate(date: Date): number {
  return ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
}

function fatTime(date: Date): number {
  return (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2);
}

function shortEntry(shortName: string, attributes: number, firstCluster: number, size: number, at: Date): Buffer {
  const entry = Buffer.alloc(DIR_ENTRY);
  entry.write(shortName, 0, 11, 'latin1');
  entry[11] = attributes;
  entry[13] = (at.getUTCSeconds() % 2) * 100; // creation time, tenths of a second beyond the 2 s step
  entry.writeUInt16LE(fatTime(at), 14); // creation time
  entry.writeUInt16LE(fatDate(at), 16); // creation date
  entry.writeUInt16LE(fatDate(at), 18); // last access date
  entry.writeUInt16LE(0, 20); // high word of the first cluster (always 0 on FAT12)
  entry.writeUInt16LE(fatTime(at), 22); // modification time
  entry.writeUInt16LE(fatDate(at), 24); // modification date
  entry.writeUInt16LE(firstCluster, 26);
  entry.writeUInt32LE(size, 28);
  return entry;
}

/** The long-name entries for NAME, in on-disk order (last part first, flagged 0x40). */
function longNameEntries(name: string, shortName: string): Buffer[] {
  if (name.length > 255) throw new Error(`File name too long: ${name}`);
  const codeUnits: number[] = [];
  for (let i = 0; i < name.length; i++) codeUnits.push(name.charCodeAt(i));
  const parts = Math.ceil(codeUnits.length / LFN_CHARS);
  // After the name: one 0x0000 terminator (if there is room), then 0xFFFF padding.
  const padded = [...codeUnits];
  if (padded.length % LFN_CHARS !== 0) padded.push(0x0000);
  while (padded.length < parts * LFN_CHARS) padded.push(0xffff);
  const checksum = shortNameChecksum(shortName);
  const entries: Buffer[] = [];
  for (let part = parts; part >= 1; part--) {
    const entry = Buffer.alloc(DIR_ENTRY);
    entry[0] = part | (part === parts ? 0x40 : 0);
    entry[11] = ATTR_LONG_NAME;
    entry[12] = 0;
    entry[13] = checksum;
    entry.writeUInt16LE(0, 26);
    const chars = padded.slice((part - 1) * LFN_CHARS, part * LFN_CHARS);
    const offsets = [1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30];
    chars.forEach((unit, i) => entry.writeUInt16LE(unit, offsets[i]!));
    entries.push(entry);
  }
  return entries;
}

function setFat12Entry(fat: Buffer, cluster: number, value: number): void {
  const offset = cluster + (cluster >> 1);
  if (cluster % 2 === 0) {
    fat[offset] = value & 0xff;
    fat[offset + 1] = (fat[offset + 1]! & 0xf0) | ((value >> 8) & 0x0f);
  } else {
    fat[offset] = (fat[offset]! & 0x0f) | ((value << 4) & 0xf0);
    fat[offset + 1] = (value >> 4) & 0xff;
  }
}

function bootSector(label: string, volumeId: number): Buffer {
  const sector = Buffer.alloc(SECTOR);
  sector.set([0xeb, 0x3c, 0x90], 0); // jump over the BPB to the boot code at 0x3e
  sector.write('TESTBED ', 3, 8, 'latin1'); // OEM name
  sector.writeUInt16LE(SECTOR, 11);
  sector[13] = 1; // sectors per cluster
  sector.writeUInt16LE(RESERVED_SECTORS, 14);
  sector[16] = FAT_COUNT;
  sector.writeUInt16LE(ROOT_ENTRIES, 17);
  sector.writeUInt16LE(TOTAL_SECTORS, 19);
  sector[21] = MEDIA;
  sector.writeUInt16LE(SECTORS_PER_FAT, 22);
  sector.writeUInt16LE(18, 24); // sectors per track
  sector.writeUInt16LE(2, 26); // heads
  sector.writeUInt32LE(0, 28); // hidden sectors
  sector.writeUInt32LE(0, 32); // total sectors (32-bit field, unused when the 16-bit one fits)
  sector[36] = 0x00; // BIOS drive number: first floppy
  sector[38] = 0x29; // extended boot signature: serial, label and type follow
  sector.writeUInt32LE(volumeId, 39);
  sector.write(label.padEnd(11, ' '), 43, 11, 'latin1');
  sector.write('FAT12   ', 54, 8, 'latin1');
  // Not bootable: int 18h hands over to the next boot device, then halt.
  sector.set([0xcd, 0x18, 0xf4, 0xeb, 0xfd], 0x3e);
  sector[510] = 0x55;
  sector[511] = 0xaa;
  return sector;
}

export function buildFat12Image(input: FatImageInput): Buffer {
  const label = input.label.toUpperCase();
  if (!/^[A-Z0-9 _-]{1,11}$/.test(label)) throw new Error(`Invalid FAT volume label: ${input.label}`);
  const at = input.modifiedAt ?? new Date();
  const image = Buffer.alloc(TOTAL_SECTORS * SECTOR);

  // Same content, same serial: a stable identity for an unchanged seed.
  const digest = createHash('sha256').update(label);
  for (const file of input.files) digest.update(file.name).update('\0').update(file.content);
  const volumeId = digest.digest().readUInt32LE(0);
  bootSector(label, volumeId).copy(image, 0);

  const fat = Buffer.alloc(SECTORS_PER_FAT * SECTOR);
  setFat12Entry(fat, 0, 0xf00 | MEDIA);
  setFat12Entry(fat, 1, END_OF_CHAIN);

  const rootEntries: Buffer[] = [shortEntry(label.padEnd(11, ' '), ATTR_VOLUME_ID, 0, 0, at)];
  const taken = new Set<string>();
  const longNamesSeen = new Set<string>();
  let nextCluster = 2;
  for (const file of input.files) {
    if (!file.name || /[\u0000-\u001f"*/:<>?\\|]/.test(file.name) || file.name !== file.name.trim()) throw new Error(`Invalid file name: ${JSON.stringify(file.name)}`);
    if (longNamesSeen.has(file.name.toLowerCase())) throw new Error(`Duplicate file name: ${file.name}`);
    longNamesSeen.add(file.name.toLowerCase());
    const clusters = Math.ceil(file.content.length / SECTOR);
    if (nextCluster - 2 + clusters > DATA_CLUSTERS) throw new Error('The files do not fit in a 1.44 MB FAT12 volume');
    const firstCluster = clusters > 0 ? nextCluster : 0;
    for (let i = 0; i < clusters; i++) {
      const cluster = nextCluster + i;
      setFat12Entry(fat, cluster, i === clusters - 1 ? END_OF_CHAIN : cluster + 1);
    }
    if (clusters > 0) file.content.copy(image, (FIRST_DATA_SECTOR + (firstCluster - 2)) * SECTOR);
    nextCluster += clusters;

    const { shortName, needsLongName } = shortNameFor(file.name, taken);
    taken.add(shortName);
    if (needsLongName) rootEntries.push(...longNameEntries(file.name, shortName));
    rootEntries.push(shortEntry(shortName, ATTR_ARCHIVE, firstCluster, file.content.length, at));
  }
  if (rootEntries.length > ROOT_ENTRIES) throw new Error('Too many files for the root directory');

  for (let copy = 0; copy < FAT_COUNT; copy++) fat.copy(image, (RESERVED_SECTORS + copy * SECTORS_PER_FAT) * SECTOR);
  const rootStart = (RESERVED_SECTORS + FAT_COUNT * SECTORS_PER_FAT) * SECTOR;
  rootEntries.forEach((entry, i) => entry.copy(image, rootStart + i * DIR_ENTRY));
  return image;
}
