/**
 * A URL path segment as the name it encodes: a recorder keeps a request's URL as sent, and clients
 * percent-encode what a path segment cannot hold as is (a model id's `:`, an ARN's `/`). A segment
 * that is not valid percent-encoding is kept as written.
 */
export function decodedSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
