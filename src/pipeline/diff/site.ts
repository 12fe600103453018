/**
 * The site a row counts under in the summary: the URL's host when the URL is absolute (as classify
 * judges it), else the host column's; lower-cased, without userinfo (a port is kept).
 */
export function siteOf(url: string, host: string): string {
  const scheme = url.indexOf('://');
  if (scheme > 0 && scheme < 10) {
    let end = url.length;
    for (const c of ['/', '?', '#']) {
      const i = url.indexOf(c, scheme + 3);
      if (i >= 0 && i < end) end = i;
    }
    const authority = url.slice(scheme + 3, end);
    return authority.slice(authority.lastIndexOf('@') + 1).toLowerCase();
  }
  if (url.startsWith('//')) return siteOf(`x:${url}`, host);
  return (host.includes('://') ? siteOf(host, '') : host).toLowerCase();
}
