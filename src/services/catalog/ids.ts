// Ids the catalog makes: numeric strings like Merchant Center's (accounts, feeds, labels, generated resource ids).
import { randomInt } from 'node:crypto';

/** A random 12-digit numeric id (no leading zero). */
export const randomNumericId = (): string => String(randomInt(1, 10)) + String(randomInt(0, 100_000)).padStart(5, '0') + String(randomInt(0, 1_000_000)).padStart(6, '0');

/** A short numeric code for phone verification. */
export const verificationCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');
