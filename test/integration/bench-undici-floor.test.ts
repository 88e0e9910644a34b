import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { runUndiciFloor } from '../../bench/lib/undici-floor.ts';

/** A server on port 0 that answers POST /ok with 200 and anything else with 500, counting the bodies it received. */
function server(): { srv: Server; bodies: string[] } {
  const bodies: string[] = [];
  const srv = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(req.url === '/ok' ? 200 : 500, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  return { srv, bodies };
}

describe('bench: undici floor (bench/lib/undici-floor.ts)', () => {
  const s = server();
  let url = '';
  before(async () => {
    s.srv.listen(0, '127.0.0.1');
    await once(s.srv, 'listening');
    const a = s.srv.address();
    url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  });
  after(() => s.srv.close());

  test('sends the request back to back on each connection until the deadline and counts the 2xx', async () => {
    s.bodies.length = 0;
    const body = Buffer.from('{"hello":1}');
    const r = await runUndiciFloor(url, { path: '/ok', method: 'POST', body, headers: { 'content-type': 'application/json' } }, 4, 0.3, 5_000);
    assert.equal(r.errors, 0);
    assert.ok(r.ok > 4, `${r.ok} answers in 0.3 s on 4 connections`);
    assert.equal(r.ok, s.bodies.length, 'every answer counted is a request the server received');
    assert.ok(s.bodies.every((b) => b === '{"hello":1}'), 'the same body every time');
    assert.ok(r.durationS >= 0.3 && r.durationS < 2, `duration ${r.durationS} s`);
  });

  test('non-2xx answers are errors, not completions', async () => {
    const r = await runUndiciFloor(url, { path: '/fail', method: 'POST', body: Buffer.from('{}'), headers: {} }, 2, 0.1, 5_000);
    assert.equal(r.ok, 0);
    assert.ok(r.errors > 0);
  });

  test('a refused connection ends that loop with an error instead of spinning', async () => {
    const closed = server().srv;
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const a = closed.address();
    const port = typeof a === 'object' && a ? a.port : 0;
    closed.close();
    await once(closed, 'close');
    const r = await runUndiciFloor(`http://127.0.0.1:${port}`, { path: '/ok', method: 'GET', headers: {} }, 3, 5, 5_000);
    assert.equal(r.ok, 0);
    assert.equal(r.errors, 3, 'one error per connection, then its loop stops');
    assert.ok(r.durationS < 5, 'stopped before the deadline');
  });
});
