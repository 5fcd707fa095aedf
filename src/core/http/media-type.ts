// Whether a Content-Type header names a media type at all (RFC 9110: type "/" subtype, then parameters).
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^\\s*${TOKEN}/${TOKEN}\\s*(;.*)?$`);

export const isMediaType = (header: string): boolean => MEDIA_TYPE.test(header);
