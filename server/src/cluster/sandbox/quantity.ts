// Kubernetes resource quantities (k8s.io/apimachinery resource.Quantity), exactly enough for
// quota and limit-range admission: parse, add, compare, and print them back the way the API
// server serializes them ("0.5" → "500m", "1024Mi" → "1Gi", 3 × "128Mi" → "384Mi"), so the
// numbers in `status.used` and in refusal messages read as a real cluster's do.
// Values are kept as a bigint of nano-units: memory in bytes up to exbibytes stays exact.

export type QuantityFormat = 'DecimalSI' | 'BinarySI';

export interface Quantity {
  nanos: bigint;
  format: QuantityFormat;
}

/** A resource name → quantity map, as `spec.hard`, `status.used` or a container's requests. */
export type ResourceList = Record<string, Quantity>;

const NANO = 1_000_000_000n;
const BINARY: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const QUANTITY = /^([+-]?)(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

/** The quantity a string denotes, or undefined when it is not one. Fractions below a nano-unit round up, as Kubernetes does. */
export function parseQuantity(text: unknown): Quantity | undefined {
  if (typeof text === 'number') text = String(text);
  if (typeof text !== 'string') return undefined;
  const match = QUANTITY.exec(text.trim());
  if (!match) return undefined;
  const [, sign, digits, suffix = ''] = match;
  const [whole, fraction = ''] = digits!.split('.');
  let numerator = BigInt((whole || '0') + fraction) * NANO;
  let denominator = 10n ** BigInt(fraction.length);
  let format: QuantityFormat = 'DecimalSI';
  if (suffix in BINARY) {
    numerator *= 1024n ** BigInt(BINARY[suffix]!);
    format = 'BinarySI';
  } else {
    const exponent = suffix in DECIMAL ? DECIMAL[suffix]! : Number(suffix.slice(1));
    if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
    else denominator *= 10n ** BigInt(-exponent);
  }
  let nanos = numerator / denominator;
  if (numerator % denominator !== 0n) nanos += 1n;
  return { nanos: sign === '-' ? -nanos : nanos, format };
}

/**
 * A quantity as a plain number of units (cores, bytes), or null when the text is not one. For
 * arithmetic where float precision is enough (usage accounting), not for comparing quotas.
 */
export function quantityNumber(text: unknown): number | null {
  const quantity = parseQuantity(text);
  if (!quantity) return null;
  const whole = quantity.nanos / NANO;
  return Number(whole) + Number(quantity.nanos - whole * NANO) / 1e9;
}

/** The canonical string the API server writes for a quantity. */
export function formatQuantity(quantity: Quantity): string {
  const { nanos, format } = quantity;
  if (nanos === 0n) return '0';
  const sign = nanos < 0n ? '-' : '';
  let value = nanos < 0n ? -nanos : nanos;
  // BinarySI is written with a binary suffix only for whole numbers of at least 1024
  // (smaller or fractional values fall back to decimal, as Quantity.CanonicalizeBytes does).
  if (format === 'BinarySI' && value % NANO === 0n && value >= 1024n * NANO) {
    value /= NANO;
    let power = 0;
    while (power < 6 && value % 1024n === 0n) {
      value /= 1024n;
      power += 1;
    }
    return `${sign}${value}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][power]}`;
  }
  let exponent = -9;
  while (exponent < 18 && value % 1000n === 0n) {
    value /= 1000n;
    exponent += 3;
  }
  const suffix = Object.entries(DECIMAL).find(([, e]) => e === exponent)![0];
  return `${sign}${value}${suffix}`;
}

/** A string written back in canonical form; one that is not a quantity is kept as it is. */
export function canonicalQuantity(text: unknown): string {
  const quantity = parseQuantity(text);
  return quantity ? formatQuantity(quantity) : String(text);
}

export const quantityOf = (count: number): Quantity => ({ nanos: BigInt(count) * NANO, format: 'DecimalSI' });

/** The sum; it keeps the first operand's format, as Quantity.Add does (a zero adopts the other's). */
export function addQuantity(a: Quantity | undefined, b: Quantity): Quantity {
  if (!a) return { ...b };
  return { nanos: a.nanos + b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

export const compareQuantity = (a: Quantity, b: Quantity) => (a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0);

/** Parses a map of strings (`spec.hard`, `resources.requests`); entries that are not quantities are left out. */
export function parseResourceList(map: unknown): ResourceList {
  const list: ResourceList = {};
  if (!map || typeof map !== 'object') return list;
  for (const [key, value] of Object.entries(map)) {
    const quantity = parseQuantity(value);
    if (quantity) list[key] = quantity;
  }
  return list;
}

export function formatResourceList(list: ResourceList): Record<string, string> {
  return Object.fromEntries(Object.entries(list).map(([key, value]) => [key, formatQuantity(value)]));
}

/** Each resource's sum over both lists. */
export function addResourceLists(a: ResourceList, b: ResourceList): ResourceList {
  const sum: ResourceList = { ...a };
  for (const [key, value] of Object.entries(b)) sum[key] = addQuantity(sum[key], value);
  return sum;
}

/** Only the entries named. */
export function maskResourceList(list: ResourceList, names: Iterable<string>): ResourceList {
  const masked: ResourceList = {};
  for (const name of names) if (list[name]) masked[name] = list[name];
  return masked;
}
