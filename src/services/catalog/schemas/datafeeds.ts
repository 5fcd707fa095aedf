// Documented requests of datafeeds.* and datafeedstatuses.*: the feed registration as datafeedDoc checks it, and
// the target filters of the status methods.
import { Type, type TProperties } from '@sinclair/typebox';
import { FEED_LABEL_PATTERN } from '../feed-label.ts';
import { WEEKDAYS } from '../rules/fetch-schedule.ts';
import { MAX_RESULTS_PAGING } from './common.ts';
import { wireBody } from './wire.ts';

export const DATAFEED_NAME_MAX = 100;
export const CONTENT_TYPES = ['products', 'local products', 'product inventory'];
export const COLUMN_DELIMITERS = ['pipe', 'tab', 'tilde'];
export const FILE_ENCODINGS = ['utf-8', 'utf-16be', 'utf-16le', 'latin-1'];
export const QUOTING_MODES = ['value quoting', 'normal character'];

const whole = (minimum: number, maximum: number, description: string) => ({ minimum, maximum, multipleOf: 1, description });

/** datafeeds.insert and datafeeds.update: the whole registration. */
export const DATAFEED_BODY = wireBody('Datafeed', {
  rules: {
    name: { maxLength: DATAFEED_NAME_MAX, description: 'Display name of the feed.' },
    fileName: { maxLength: DATAFEED_NAME_MAX, pattern: '^[\\w.-]+$', description: 'File name of the feed, unique in the merchant (letters, digits, ., - and _).' },
    contentType: { enum: CONTENT_TYPES, description: 'The type of the feed; required.' },
    targets: { description: 'Where the feed\'s products go: a language, and a country or feed label, each.' },
    'targets.language': { pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'ISO 639-1 language of the items; required.' },
    'targets.country': { pattern: '^[A-Z]{2}$', description: 'Country of the items; feedLabel stands in when it is absent, and must equal it when both are set.' },
    'targets.feedLabel': { pattern: FEED_LABEL_PATTERN, description: 'Feed label of the items (up to 20 of A-Z, 0-9 and -).' },
    'format.columnDelimiter': { enum: COLUMN_DELIMITERS },
    'format.fileEncoding': { enum: FILE_ENCODINGS },
    'format.quotingMode': { enum: QUOTING_MODES },
    fetchSchedule: { description: 'When the service downloads the feed from fetchUrl (an http or https URL, required with a schedule).' },
    'fetchSchedule.hour': whole(0, 23, 'Hour of the day the fetch runs.'),
    'fetchSchedule.minuteOfHour': whole(0, 59, 'Minute of the hour the fetch runs.'),
    'fetchSchedule.dayOfMonth': whole(1, 31, 'Day of a monthly fetch (the month\'s last day when it has fewer); excludes weekday.'),
    'fetchSchedule.weekday': { enum: [...WEEKDAYS], description: 'Day of a weekly fetch; excludes dayOfMonth.' },
    'fetchSchedule.timeZone': { description: 'IANA time zone of the schedule; UTC unless given.' },
    'fetchSchedule.password': { description: 'Write-only: kept when an update leaves it out.' },
    id: { description: 'Made by insert; on update it must equal datafeedId.' },
  },
  required: ['name', 'fileName', 'contentType', 'targets', 'targets.language', 'fetchSchedule.fetchUrl'],
});

const targetFilters: TProperties = {
  country: Type.Optional(Type.String({ description: 'Only the target of this country; needs language.' })),
  feedLabel: Type.Optional(Type.String({ description: 'Only the target of this feed label; needs language.' })),
  language: Type.Optional(Type.String({ description: 'Only the target of this language; needs feedLabel or country. The three are required for a feed with several targets.' })),
};

export const DATAFEED_STATUS_GET_QUERY = targetFilters;
export const DATAFEED_LIST_QUERY = MAX_RESULTS_PAGING;
