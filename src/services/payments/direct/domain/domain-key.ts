// Domain keys authorise browser posts from a merchant's registered hosts. The calling page's host comes from the
// Origin header (or, when a browser sends none, the Referer); it must equal a registered domain, or be a
// subdomain of one registered as `*.example.com`. Ports are not compared.

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The canonical form of a domain to register (lower case, optional `*.` prefix), or undefined when not a host name. */
export function canonicalDomain(raw: string): string | undefined {
  const d = raw.trim().toLowerCase().replace(/\.$/, '');
  const wildcard = d.startsWith('*.');
  const host = wildcard ? d.slice(2) : d;
  if (!HOSTNAME.test(host)) return undefined;
  return wildcard ? `*.${host}` : host;
}

/** The host of the page that made the request, from Origin, else Referer; undefined when neither is a URL. */
export function callingHost(origin: string | undefined, referer: string | undefined): string | undefined {
  for (const candidate of [origin, referer]) {
    if (!candidate || candidate === 'null') continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    } catch {
      // not a URL: try the next header
    }
  }
  return undefined;
}

export function hostAllowed(host: string, domains: string[]): boolean {
  return domains.some((d) => (d.startsWith('*.') ? host.endsWith(d.slice(1)) : host === d));
}
