/**
 * Test support: a small stand-in for the GitHub REST API on 127.0.0.1 — pull requests (state, head
 * sha) and issue comments with Link-header pagination — holding its state in memory so tests can
 * see exactly what the preview workflow's commands did. Rejects any token but the one it was given.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
}

export interface FakeGitHub {
  apiUrl: string;
  repo: string;
  token: string;
  pulls: Map<number, { state: 'open' | 'closed'; head: { sha: string } }>;
  comments: Map<number, FakeComment[]>;
  requests: string[];
  /** Comments per page (GitHub caps per_page at 100; tests use less to exercise paging). */
  pageSize: number;
  close(): Promise<void>;
}

export async function startFakeGitHub(repo = 'acme/explainer', token = 'test-token'): Promise<FakeGitHub> {
  let nextId = 1000;
  const state = {
    pulls: new Map<number, { state: 'open' | 'closed'; head: { sha: string } }>(),
    comments: new Map<number, FakeComment[]>(),
    requests: [] as string[],
    pageSize: 100,
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      state.requests.push(`${req.method} ${url.pathname}${url.search}`);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { message: 'Bad credentials' });
      const base = `/repos/${repo}`;
      let m: RegExpExecArray | null;
      if (req.method === 'GET' && (m = new RegExp(`^${base}/pulls/(\\d+)$`).exec(url.pathname))) {
        const pull = state.pulls.get(Number(m[1]));
        return pull ? send(200, { number: Number(m[1]), ...pull }) : send(404, { message: 'Not Found' });
      }
      if ((m = new RegExp(`^${base}/issues/(\\d+)/comments$`).exec(url.pathname))) {
        const list = state.comments.get(Number(m[1])) ?? [];
        if (req.method === 'POST') {
          const c = { id: nextId++, body: (JSON.parse(raw) as { body: string }).body };
          state.comments.set(Number(m[1]), [...list, c]);
          return send(201, c);
        }
        const size = Math.min(Number(url.searchParams.get('per_page') ?? 30), state.pageSize);
        const page = Number(url.searchParams.get('page') ?? 1);
        const slice = list.slice((page - 1) * size, page * size);
        const more = page * size < list.length;
        const next = new URL(url.href.replace('http://x', `http://127.0.0.1:${(server.address() as AddressInfo).port}`));
        next.searchParams.set('page', String(page + 1));
        return send(200, slice, more ? { link: `<${next.href}>; rel="next"` } : {});
      }
      if (req.method === 'PATCH' && (m = new RegExp(`^${base}/issues/comments/(\\d+)$`).exec(url.pathname))) {
        for (const list of state.comments.values()) {
          const c = list.find((x) => x.id === Number(m![1]));
          if (c) {
            c.body = (JSON.parse(raw) as { body: string }).body;
            return send(200, c);
          }
        }
        return send(404, { message: 'Not Found' });
      }
      send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    apiUrl: `http://127.0.0.1:${port}`,
    repo,
    token,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  });
}
