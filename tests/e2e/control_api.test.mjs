// The control API (/_inflight/v1/) next to the AWS SDK for JavaScript v3, on a frozen clock: every
// call the README lists, from Node as a JS test suite would make them. (control_api_test.py
// covers bad input and protection; examples/with_inflight.test.mjs the README's scenarios.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  CreateQueueCommand, ListQueuesCommand, PurgeQueueCommand, ReceiveMessageCommand,
  SendMessageCommand, SQSClient,
} from '@aws-sdk/client-sqs';

import { startInflight } from './inflight_process.mjs';

let server;
let sqs;

before(async () => {
  server = await startInflight('--clock', 'frozen', '--start', '2030-01-01T00:00:00Z');
  sqs = new SQSClient({ endpoint: server.url, region: 'us-east-1', maxAttempts: 1,
    credentials: { accessKeyId: 'AKIDINFLIGHTE2E', secretAccessKey: 'inflight-e2e-secret' } });
});
after(() => server.stop());

async function control(method, path, body) {
  const response = await fetch(`${server.url}/_inflight/v1/${path}`,
    { method, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}
const send = (command) => sqs.send(command);

test('health', async () => {
  const { status, body } = await control('GET', 'health');
  assert.equal(status, 200);
  assert.equal(body.ready, true);
  assert.match(body.version, /^\d+\.\d+/);
});

test('the clock: frozen at --start, then every change', async () => {
  let { body: clock } = await control('GET', 'clock');
  assert.deepEqual([clock.now, clock.paused], [Date.UTC(2030, 0, 1), true]);
  ({ body: clock } = await control('POST', 'clock', { advanceMs: 31_000 }));
  assert.equal(clock.now, Date.UTC(2030, 0, 1) + 31_000);
  ({ body: clock } = await control('POST', 'clock', { advanceTo: Date.UTC(2030, 0, 2) }));
  assert.equal(clock.now, Date.UTC(2030, 0, 2));
  assert.ok(Math.abs(clock.wallOffsetMs - (clock.now - Date.now())) < 5_000);
  ({ body: clock } = await control('POST', 'clock', { speed: 10 }));
  assert.equal(clock.speed, 10);
  ({ body: clock } = await control('POST', 'clock', { resume: true }));
  assert.equal(clock.paused, false);
  ({ body: clock } = await control('POST', 'clock', { pause: true }));
  assert.equal(clock.paused, true);
  await control('POST', 'clock', { speed: 1 });
});

test('messages, events and a queue reset', async () => {
  await control('POST', 'reset');
  const { QueueUrl } = await send(new CreateQueueCommand(
    { QueueName: 'js', Attributes: { VisibilityTimeout: '30' } }));
  const { body: start } = await control('GET', 'events');
  const { MessageId } = await send(new SendMessageCommand({ QueueUrl, MessageBody: 'hello' }));
  const received = await send(new ReceiveMessageCommand({ QueueUrl }));
  let { body: peek } = await control('GET', 'queues/js/messages?state=inFlight');
  assert.deepEqual(peek.messages.map((m) => [m.messageId, m.state, m.receiptHandle]),
    [[MessageId, 'inFlight', received.Messages[0].ReceiptHandle]]);
  await control('POST', 'clock', { advanceMs: 30_000 });
  const { body: page } = await control('GET', `events?after=${start.cursor}&waitSeconds=1`);
  assert.deepEqual(page.events.map((e) => e.kind),
    ['MessageSent', 'MessageReceived', 'VisibilityExpired']);
  ({ body: peek } = await control('GET', 'queues/js/messages'));
  assert.deepEqual(peek.messages.map((m) => [m.state, m.receiveCount]), [['available', 1]]);
  assert.equal((await control('POST', 'queues/js/reset')).status, 200);
  assert.deepEqual((await control('GET', 'queues/js/messages')).body.messages, []);
  await send(new PurgeQueueCommand({ QueueUrl })); // a reset is no purge: one is allowed at once
});

test('config at run time, and reset of everything', async () => {
  const { status, body } = await control('POST', 'config', { queues: [
    { name: 'from-config.fifo', attributes: { ContentBasedDeduplication: true },
      messages: [{ body: 'first', groupId: 'g' }] },
  ] });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.queuesCreated, 1);
  const listed = await send(new ListQueuesCommand({}));
  assert.ok(listed.QueueUrls.some((url) => url.endsWith('/from-config.fifo')));
  const { body: bad } = await control('POST', 'config', { queues: [{ name: 'x', typo: 1 }] });
  assert.equal(bad.error.code, 'InvalidConfig');
  assert.match(bad.error.message, /line 1, column \d+, at queues\[0\]/);
  assert.equal((await control('POST', 'reset')).status, 200);
  assert.equal((await send(new ListQueuesCommand({}))).QueueUrls, undefined);
  await send(new CreateQueueCommand({ QueueName: 'from-config.fifo',
    Attributes: { FifoQueue: 'true' } })); // the name is free at once
});
