// Testing an SQS application with Inflight, in Node's test runner with the AWS SDK for JavaScript
// v3: engine time is frozen and moved by the control API, so nothing here sleeps to wait for a
// timeout. README "Testing with Inflight" explains each call.
// Run: INFLIGHT_BIN=build/app/inflight node --test tests/e2e/examples/with_inflight.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, beforeEach, test } from 'node:test';

import {
  CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';

let inflight;
let url;
let sqs;

// `inflight --headless` on a free port, its clock frozen: time moves only when a test says.
before(async () => {
  inflight = spawn(process.env.INFLIGHT_BIN ?? 'inflight',
    ['--headless', '--listen', '127.0.0.1:0', '--clock', 'frozen', '--in-flight-limit', '5'],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(createInterface({ input: inflight.stdout }), 'line');
  url = line.match(/listening on (\S+)/)[1];
  sqs = new SQSClient({ endpoint: url, region: 'us-east-1', maxAttempts: 1,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
});
after(() => inflight.kill('SIGTERM'));

// One call of the control API (/_inflight/v1/...): its JSON answer.
async function control(method, path, body) {
  const response = await fetch(`${url}/_inflight/v1/${path}`,
    { method, body: body === undefined ? undefined : JSON.stringify(body) });
  assert.equal(response.status, 200, await response.clone().text());
  return response.json();
}
// Moves engine time; everything that fell due has happened when this returns.
const advance = (seconds) => control('POST', 'clock', { advanceMs: seconds * 1000 });
const send = (command) => sqs.send(command);

beforeEach(() => control('POST', 'reset')); // every queue of the last test gone

test('a message comes back after its visibility timeout', async () => {
  const { QueueUrl } = await send(new CreateQueueCommand(
    { QueueName: 'jobs', Attributes: { VisibilityTimeout: '30' } }));
  await send(new SendMessageCommand({ QueueUrl, MessageBody: 'job 1' }));
  await send(new ReceiveMessageCommand({ QueueUrl })); // taken, never deleted
  assert.equal((await send(new ReceiveMessageCommand({ QueueUrl }))).Messages, undefined);
  await advance(30);
  const again = await send(new ReceiveMessageCommand(
    { QueueUrl, MessageSystemAttributeNames: ['ApproximateReceiveCount'] }));
  assert.equal(again.Messages[0].Attributes.ApproximateReceiveCount, '2');
});

test('a poison message ends in the dead-letter queue', async () => {
  const dlq = await send(new CreateQueueCommand({ QueueName: 'jobs-dlq' }));
  const { Attributes } = await send(new GetQueueAttributesCommand(
    { QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
  const { QueueUrl } = await send(new CreateQueueCommand({ QueueName: 'jobs', Attributes: {
    VisibilityTimeout: '10',
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes.QueueArn, maxReceiveCount: 3 }),
  } }));
  const { cursor } = await control('GET', 'events');
  await send(new SendMessageCommand({ QueueUrl, MessageBody: 'poison' }));
  for (let i = 0; i < 3; ++i) {
    assert.equal((await send(new ReceiveMessageCommand({ QueueUrl }))).Messages.length, 1);
    await advance(10);
  }
  assert.equal((await send(new ReceiveMessageCommand({ QueueUrl }))).Messages, undefined);
  const { events } = await control('GET', `events?after=${cursor}`);
  assert.deepEqual(events.filter((e) => e.kind === 'MovedToDeadLetterQueue').map((e) => e.destination),
    ['jobs-dlq']);
  const { messages } = await control('GET', 'queues/jobs-dlq/messages');
  assert.deepEqual(messages.map((m) => m.body), ['poison']);
});

test('the FIFO deduplication window ends after five minutes', async () => {
  const { QueueUrl } = await send(new CreateQueueCommand(
    { QueueName: 'orders.fifo', Attributes: { FifoQueue: 'true' } }));
  const order = { QueueUrl, MessageBody: 'order 7', MessageGroupId: 'customer-1',
    MessageDeduplicationId: 'order-7' };
  const first = (await send(new SendMessageCommand(order))).MessageId;
  assert.equal((await send(new SendMessageCommand(order))).MessageId, first); // deduplicated
  await advance(5 * 60);
  assert.notEqual((await send(new SendMessageCommand(order))).MessageId, first);
});

test('retention expires a message', async () => {
  const { QueueUrl } = await send(new CreateQueueCommand(
    { QueueName: 'short', Attributes: { MessageRetentionPeriod: '60' } }));
  await send(new SendMessageCommand({ QueueUrl, MessageBody: 'stale soon' }));
  await advance(59);
  assert.equal((await control('GET', 'queues/short/messages')).messages.length, 1);
  await advance(1);
  assert.deepEqual((await control('GET', 'queues/short/messages')).messages, []);
});

test('the in-flight limit', async () => {
  // Started with --in-flight-limit 5 (SQS's is 120,000), so the test reaches it in a few calls.
  const { QueueUrl } = await send(new CreateQueueCommand({ QueueName: 'busy' }));
  for (let i = 0; i < 6; ++i)
    await send(new SendMessageCommand({ QueueUrl, MessageBody: `m${i}` }));
  for (let i = 0; i < 5; ++i)
    await send(new ReceiveMessageCommand({ QueueUrl }));
  await assert.rejects(send(new ReceiveMessageCommand({ QueueUrl })), { name: 'OverLimit' });
});
