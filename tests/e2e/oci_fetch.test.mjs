// Node's own fetch (undici, Node 18+) against `inflight --headless`: every OCI Queue REST
// operation. undici sends `sec-fetch-mode: cors`, `accept-language: *` and `user-agent: node` on
// every request -- the request guard must not take that for a web page (issue 38: a GetMessages
// from a Node program was refused as "from a browser"). Deno and Bun send the same. Run by ctest
// with `node --test` (label e2e).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { startInflight } from './inflight_process.mjs';

let server;
let base;

before(async () => {
  server = await startInflight('--in-memory', '--oci-queue', 'orders',
                               '--oci-queue', 'retry:deadLetterQueueDeliveryCount=1');
  base = `${server.url}/20210201/queues`;
});

after(async () => {
  assert.equal(await server.stop(), 0);
});

// One OCI call with fetch as a Node program makes it; the status and the parsed body.
async function oci(method, path, body) {
  const response = await fetch(`${base}/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

test('every OCI operation works from fetch', async () => {
  const put = await oci('POST', 'orders/messages', {
    messages: [{ content: 'one' }, { content: 'two' },
               { content: 'three', metadata: { channelId: 'eu', customProperties: { k: 'v' } } }],
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body.messages.length, 3);

  const channels = await oci('GET', 'orders/channels');
  assert.equal(channels.status, 200);
  assert.deepEqual(channels.body.items, ['eu']);

  const inChannel = await oci('GET', 'orders/messages?channelFilter=eu&limit=5&visibilityInSeconds=30&timeoutInSeconds=0');
  assert.equal(inChannel.status, 200, JSON.stringify(inChannel.body)); // was 401 "from a browser"
  assert.deepEqual(inChannel.body.messages.map((m) => m.content), ['three']);
  const got = await oci('GET', 'orders/messages?limit=5&visibilityInSeconds=30&timeoutInSeconds=0');
  assert.equal(got.status, 200, JSON.stringify(got.body));
  assert.deepEqual(got.body.messages.map((m) => m.content).sort(), ['one', 'two']);
  const receipts = [...got.body.messages, ...inChannel.body.messages].map((m) => m.receipt);

  const updated = await oci('PUT', `orders/messages/${encodeURIComponent(receipts[0])}`,
                            { visibilityInSeconds: 120 });
  assert.equal(updated.status, 200);
  assert.ok(updated.body.visibleAfter);

  const batch = await oci('POST', 'orders/messages/actions/updateMessages',
                          { entries: [{ receipt: receipts[1], visibilityInSeconds: 60 }] });
  assert.equal(batch.status, 200);
  assert.equal(batch.body.clientFailures, 0);

  const stats = await oci('GET', 'orders/stats');
  assert.equal(stats.status, 200);
  assert.equal(stats.body.queue.inFlightMessages, 3);

  const deleted = await oci('POST', 'orders/messages/actions/deleteMessages',
                            { entries: [{ receipt: receipts[0] }, { receipt: receipts[1] }] });
  assert.equal(deleted.status, 200);
  assert.equal(deleted.body.clientFailures, 0);
  const one = await oci('DELETE', `orders/messages/${encodeURIComponent(receipts[2])}`);
  assert.equal(one.status, 200);

  assert.equal((await oci('POST', 'orders/messages', { messages: [{ content: 'four' }] })).status, 200);
  const purged = await oci('POST', 'orders/actions/purge', { purgeType: 'NORMAL' });
  assert.equal(purged.status, 200);
  const empty = await oci('GET', 'orders/stats');
  assert.equal(empty.body.queue.visibleMessages + empty.body.queue.inFlightMessages, 0);
});

test('a long poll from fetch is answered when a message arrives', async () => {
  const waiting = oci('GET', 'retry/messages?timeoutInSeconds=20');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal((await oci('POST', 'retry/messages', { messages: [{ content: 'wake' }] })).status, 200);
  const got = await waiting;
  assert.equal(got.status, 200);
  assert.equal(got.body.messages.length, 1);
  assert.equal(got.body.messages[0].content, 'wake');
});
