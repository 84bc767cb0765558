// The AWS SDK for JavaScript v3 (@aws-sdk/client-sqs, pinned in package-lock.json: SQS over the
// AWS JSON 1.0 protocol) against `inflight --headless`. The SDK checks MD5OfMessageBody (send,
// batch send, receive) and throws on a mismatch, so every successful call here also checks our
// body digests; MD5OfMessageAttributes, which it does not check, we compare with our own
// computation of the documented algorithm. Run by ctest with `node --test` (label e2e).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

const sqs = await import('@aws-sdk/client-sqs').catch((error) => {
  throw new Error(`@aws-sdk/client-sqs is not installed: run npm ci at the repository root (scripts/test.sh does): ${error.message}`);
});

import { startInflight } from './inflight_process.mjs';

let server;
let client;

function newClient() {
  return new sqs.SQSClient({
    endpoint: server.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDINFLIGHTE2E', secretAccessKey: 'inflight-e2e-secret' },
    maxAttempts: 1,
  });
}

const send = (command) => client.send(command);

// MD5OfMessageAttributes per the documented algorithm (spec §2.6), independent of the server.
function attributesMd5(attributes) {
  const parts = [];
  const field = (bytes) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    parts.push(length, Buffer.from(bytes));
  };
  for (const name of Object.keys(attributes).sort()) {
    const { DataType, StringValue, BinaryValue } = attributes[name];
    field(Buffer.from(name, 'utf8'));
    field(Buffer.from(DataType, 'utf8'));
    if (DataType.startsWith('Binary')) {
      parts.push(Buffer.from([2]));
      field(BinaryValue);
    } else {
      parts.push(Buffer.from([1]));
      field(Buffer.from(StringValue, 'utf8'));
    }
  }
  return createHash('md5').update(Buffer.concat(parts)).digest('hex');
}

// The error a call fails with: its name (JSON __type), query-compatible code and HTTP status.
async function errorOf(command) {
  try {
    await send(command);
  } catch (error) {
    return { name: error.name, code: error.Code, status: error.$metadata?.httpStatusCode };
  }
  assert.fail(`${command.constructor.name} succeeded, expected an error`);
}

async function createQueue(QueueName, Attributes) {
  return (await send(new sqs.CreateQueueCommand({ QueueName, Attributes }))).QueueUrl;
}

async function arnOf(QueueUrl) {
  const { Attributes } = await send(
    new sqs.GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  return Attributes.QueueArn;
}

before(async () => {
  server = await startInflight();
  client = newClient();
});

after(async () => {
  client?.destroy();
  assert.equal(await server?.stop(), 0, 'inflight exits cleanly on SIGTERM');
});

describe('queue actions', () => {
  test('create, look up, list, attributes, tags, permissions, delete', async () => {
    const url = await createQueue('js-life', { DelaySeconds: '1' });
    assert.equal(url, `${server.url}/000000000000/js-life`);
    assert.equal((await send(new sqs.GetQueueUrlCommand({ QueueName: 'js-life' }))).QueueUrl, url);
    const listed = await send(new sqs.ListQueuesCommand({ QueueNamePrefix: 'js-l' }));
    assert.deepEqual(listed.QueueUrls, [url]);

    await send(new sqs.SetQueueAttributesCommand({ QueueUrl: url, Attributes: { VisibilityTimeout: '50' } }));
    const { Attributes } = await send(new sqs.GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }));
    assert.equal(Attributes.VisibilityTimeout, '50');
    assert.equal(Attributes.DelaySeconds, '1');

    await send(new sqs.TagQueueCommand({ QueueUrl: url, Tags: { team: 'payments', tier: 'gold' } }));
    await send(new sqs.UntagQueueCommand({ QueueUrl: url, TagKeys: ['tier'] }));
    assert.deepEqual((await send(new sqs.ListQueueTagsCommand({ QueueUrl: url }))).Tags, { team: 'payments' });

    await send(new sqs.AddPermissionCommand({
      QueueUrl: url, Label: 'send', AWSAccountIds: ['111122223333'], Actions: ['SendMessage'],
    }));
    await send(new sqs.RemovePermissionCommand({ QueueUrl: url, Label: 'send' }));

    await send(new sqs.DeleteQueueCommand({ QueueUrl: url }));
    assert.deepEqual(await errorOf(new sqs.GetQueueUrlCommand({ QueueName: 'js-life' })), {
      name: 'QueueDoesNotExist', code: 'AWS.SimpleQueueService.NonExistentQueue', status: 400,
    });
  });

  test('errors carry the JSON type, the query code and the status', async () => {
    const url = await createQueue('js-errors');
    assert.deepEqual(await errorOf(new sqs.ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 11 })),
      // An unmodelled error: the SDK names it after the query code.
      { name: 'InvalidParameterValue', code: 'InvalidParameterValue', status: 400 });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ Id: `m${i}`, MessageBody: 'x' }));
    assert.deepEqual(await errorOf(new sqs.SendMessageBatchCommand({ QueueUrl: url, Entries: eleven })), {
      name: 'TooManyEntriesInBatchRequest',
      code: 'AWS.SimpleQueueService.TooManyEntriesInBatchRequest',
      status: 400,
    });
    assert.deepEqual(await errorOf(new sqs.SendMessageCommand({
      QueueUrl: `${server.url}/000000000000/js-missing`, MessageBody: 'x',
    })), { name: 'QueueDoesNotExist', code: 'AWS.SimpleQueueService.NonExistentQueue', status: 400 });
    await send(new sqs.PurgeQueueCommand({ QueueUrl: url }));
    assert.deepEqual(await errorOf(new sqs.PurgeQueueCommand({ QueueUrl: url })), {
      name: 'PurgeQueueInProgress', code: 'AWS.SimpleQueueService.PurgeQueueInProgress', status: 403,
    });
  });
});

describe('message actions', () => {
  test('attributes whose digests the SDK verifies, on send and on receive', async () => {
    const url = await createQueue('js-messages');
    const MessageAttributes = {
      Hello: { DataType: 'String', StringValue: 'There' },
      General: { DataType: 'String', StringValue: 'Kenobi' },
      'Help.Me': { DataType: 'String', StringValue: 'Me' },
      Count: { DataType: 'Number.int', StringValue: '7' },
      Blob: { DataType: 'Binary', BinaryValue: Uint8Array.from([0, 1, 2, 255]) },
    };
    const body = 'body with ünïcödé ✓, "quotes" and\r\na CRLF';
    const sent = await send(new sqs.SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageAttributes }));
    assert.match(sent.MessageId, /^[0-9a-f-]{36}$/);
    assert.equal(sent.MD5OfMessageAttributes, attributesMd5(MessageAttributes));

    const [message] = (await send(new sqs.ReceiveMessageCommand({
      QueueUrl: url, MessageAttributeNames: ['All'], MessageSystemAttributeNames: ['All'],
    }))).Messages;
    assert.equal(message.Body, body);
    assert.deepEqual(message.MessageAttributes.Blob.BinaryValue, Uint8Array.from([0, 1, 2, 255]));
    assert.equal(message.Attributes.ApproximateReceiveCount, '1');
    assert.equal(message.MD5OfMessageAttributes, attributesMd5(MessageAttributes));

    // A filtered receive: the digest covers only the attributes returned (spec §2.6 vector).
    await send(new sqs.ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: 0 }));
    const [filtered] = (await send(new sqs.ReceiveMessageCommand({
      QueueUrl: url, MessageAttributeNames: ['Hello', 'General'],
    }))).Messages;
    assert.deepEqual(Object.keys(filtered.MessageAttributes).sort(), ['General', 'Hello']);
    assert.equal(filtered.MD5OfMessageAttributes, 'fca026605781cb4126a1e9044df24232');
    assert.equal(filtered.MD5OfMessageAttributes, attributesMd5(filtered.MessageAttributes));
    await send(new sqs.DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: filtered.ReceiptHandle }));

    const { Messages } = await send(new sqs.ReceiveMessageCommand({ QueueUrl: url }));
    assert.equal(Messages, undefined, 'an empty receive has no Messages');
  });

  test('batches with partial failures', async () => {
    const url = await createQueue('js-batches');
    const sent = await send(new sqs.SendMessageBatchCommand({
      QueueUrl: url,
      Entries: [
        { Id: 'a', MessageBody: 'one', MessageAttributes: { k: { DataType: 'String', StringValue: 'v' } } },
        { Id: 'b', MessageBody: 'too late', DelaySeconds: 901 },
        { Id: 'c', MessageBody: 'two' },
      ],
    }));
    assert.deepEqual(sent.Successful.map((e) => e.Id).sort(), ['a', 'c']);
    assert.deepEqual(sent.Failed.map((e) => [e.Id, e.Code, e.SenderFault]), [['b', 'InvalidParameterValue', true]]);

    const { Messages } = await send(new sqs.ReceiveMessageCommand({
      QueueUrl: url, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'],
    }));
    assert.equal(Messages.length, 2);
    const changed = await send(new sqs.ChangeMessageVisibilityBatchCommand({
      QueueUrl: url,
      Entries: [
        { Id: 'ok', ReceiptHandle: Messages[0].ReceiptHandle, VisibilityTimeout: 60 },
        { Id: 'bad', ReceiptHandle: 'garbage', VisibilityTimeout: 60 },
      ],
    }));
    assert.deepEqual(changed.Successful.map((e) => e.Id), ['ok']);
    assert.deepEqual(changed.Failed.map((e) => [e.Id, e.Code]), [['bad', 'ReceiptHandleIsInvalid']]);
    const deleted = await send(new sqs.DeleteMessageBatchCommand({
      QueueUrl: url,
      Entries: [...Messages.map((m, i) => ({ Id: `m${i}`, ReceiptHandle: m.ReceiptHandle })), { Id: 'junk', ReceiptHandle: 'junk' }],
    }));
    assert.deepEqual(deleted.Successful.map((e) => e.Id).sort(), ['m0', 'm1']);
    assert.deepEqual(deleted.Failed.map((e) => e.Id), ['junk']);
  });

  test('FIFO order and group blocking', async () => {
    const url = await createQueue('js-jobs.fifo', { FifoQueue: 'true' });
    let n = 0;
    for (const [group, body] of [['A', 'a1'], ['A', 'a2'], ['B', 'b1'], ['A', 'a3']]) {
      await send(new sqs.SendMessageCommand({
        QueueUrl: url, MessageBody: body, MessageGroupId: group, MessageDeduplicationId: `d${n++}`,
      }));
    }
    const first = (await send(new sqs.ReceiveMessageCommand({ QueueUrl: url }))).Messages;
    assert.deepEqual(first.map((m) => m.Body), ['a1']);
    const rest = (await send(new sqs.ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }))).Messages;
    assert.deepEqual(rest.map((m) => m.Body), ['b1'], 'group A waits while a1 is in flight');
    await send(new sqs.DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: first[0].ReceiptHandle }));
    const next = (await send(new sqs.ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }))).Messages;
    assert.deepEqual(next.map((m) => m.Body), ['a2', 'a3']);
  });

  test('a dead-letter move and message move tasks', async () => {
    const dlq = await createQueue('js-dlq');
    const dlqArn = await arnOf(dlq);
    const source = await createQueue('js-source', {
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 1 }),
    });
    const sources = await send(new sqs.ListDeadLetterSourceQueuesCommand({ QueueUrl: dlq }));
    assert.deepEqual(sources.queueUrls, [source]);

    await send(new sqs.SendMessageCommand({ QueueUrl: source, MessageBody: 'poison' }));
    await send(new sqs.ReceiveMessageCommand({ QueueUrl: source, VisibilityTimeout: 0 }));
    assert.equal((await send(new sqs.ReceiveMessageCommand({ QueueUrl: source }))).Messages, undefined);
    const moved = (await send(new sqs.ReceiveMessageCommand({ QueueUrl: dlq, VisibilityTimeout: 0 }))).Messages;
    assert.equal(moved[0].Body, 'poison');

    await send(new sqs.StartMessageMoveTaskCommand({ SourceArn: dlqArn }));
    let tasks;
    for (let i = 0; i < 100; ++i) {
      tasks = (await send(new sqs.ListMessageMoveTasksCommand({ SourceArn: dlqArn }))).Results;
      if (tasks[0].Status === 'COMPLETED') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(tasks[0].Status, 'COMPLETED');
    assert.equal(tasks[0].ApproximateNumberOfMessagesMoved, 1);
    assert.equal((await send(new sqs.ReceiveMessageCommand({ QueueUrl: source }))).Messages[0].Body, 'poison');

    await send(new sqs.SendMessageBatchCommand({
      QueueUrl: dlq, Entries: Array.from({ length: 5 }, (_, i) => ({ Id: `${i}`, MessageBody: 'x' })),
    }));
    const { TaskHandle } = await send(new sqs.StartMessageMoveTaskCommand({
      SourceArn: dlqArn, DestinationArn: await arnOf(source), MaxNumberOfMessagesPerSecond: 1,
    }));
    const cancelled = await send(new sqs.CancelMessageMoveTaskCommand({ TaskHandle }));
    assert.ok(cancelled.ApproximateNumberOfMessagesMoved < 5);
    assert.equal((await errorOf(new sqs.CancelMessageMoveTaskCommand({ TaskHandle }))).name,
      'ResourceNotFoundException');
  });

  test('a long poll answered early by a send from another client', async () => {
    const url = await createQueue('js-waiting');
    const other = newClient();
    try {
      const started = performance.now();
      const polling = other.send(new sqs.ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 10 }))
        .then((output) => ({ output, ms: performance.now() - started }));
      await new Promise((resolve) => setTimeout(resolve, 500));
      await send(new sqs.SendMessageCommand({ QueueUrl: url, MessageBody: 'wake up' }));
      const { output, ms } = await polling;
      assert.equal(output.Messages[0].Body, 'wake up');
      assert.ok(ms > 400 && ms < 2500, `long poll took ${ms} ms`);
    } finally {
      other.destroy();
    }
  });
});
