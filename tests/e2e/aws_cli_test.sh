#!/usr/bin/env bash
# The AWS CLI of Debian's awscli package (2.9.x: SQS over the Query protocol) against
# `inflight --headless`: every SQS action, errors, FIFO groups, a dead-letter move, a long poll
# answered early, batch partial failures. Run by ctest (label e2e).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

AWS=/usr/bin/aws # Debian's, not whatever `aws` comes first on PATH
[[ -x "$AWS" ]] || { echo "missing $AWS: install Debian's awscli (bash scripts/deps.sh)" >&2; exit 1; }

# Dummy credentials, no user configuration, no retries, no pager; the move-task operations added
# to the CLI's own (2022) SQS model, see sqs_move_task_model.py.
export AWS_ACCESS_KEY_ID=AKIDINFLIGHTE2E AWS_SECRET_ACCESS_KEY=inflight-e2e-secret
export AWS_DEFAULT_REGION=us-east-1 AWS_CONFIG_FILE="$E2E_TMP/config"
export AWS_SHARED_CREDENTIALS_FILE="$E2E_TMP/credentials" AWS_PAGER= AWS_MAX_ATTEMPTS=1
export AWS_DATA_PATH
AWS_DATA_PATH=$(/usr/bin/python3 "$E2E_DIR/sqs_move_task_model.py" "$E2E_TMP/models" && echo "$E2E_TMP/models")

inflight_start

sqs() { "$AWS" --endpoint-url "$INFLIGHT_URL" --output text sqs "$@"; }
# sqs_error CODE ARGS...: the call must fail with that error code.
sqs_error() {
    local code=$1 label=$2 out
    shift 2
    if out=$(sqs "$@" 2>&1); then
        fail "$label: succeeded, expected $code"
    else
        expect_match "$out" "An error occurred \\($code\\)" "$label"
    fi
}
md5() { printf '%s' "$1" | md5sum | cut -d' ' -f1; }

ACCOUNT_URL="$INFLIGHT_URL/000000000000"

# ---- queues --------------------------------------------------------------------------------------
expect_eq "$(sqs create-queue --queue-name orders --attributes VisibilityTimeout=20)" \
    "$ACCOUNT_URL/orders" "CreateQueue returns the queue URL"
ORDERS="$ACCOUNT_URL/orders"
DLQ=$(sqs create-queue --queue-name orders-dlq)
JOBS=$(sqs create-queue --queue-name jobs.fifo \
    --attributes FifoQueue=true,ContentBasedDeduplication=true)
expect_eq "$JOBS" "$ACCOUNT_URL/jobs.fifo" "CreateQueue makes a FIFO queue"
expect_eq "$(sqs get-queue-url --queue-name orders)" "$ORDERS" "GetQueueUrl"
expect_eq "$(sqs list-queues --queue-name-prefix orders --query 'join(`,`, QueueUrls)')" \
    "$ORDERS,$DLQ" "ListQueues with a prefix, in name order"
expect_eq "$(sqs get-queue-attributes --queue-url "$ORDERS" --attribute-names All \
    --query 'Attributes.VisibilityTimeout')" "20" "GetQueueAttributes All"
DLQ_ARN=$(sqs get-queue-attributes --queue-url "$DLQ" --attribute-names QueueArn \
    --query Attributes.QueueArn)
expect_eq "$DLQ_ARN" "arn:aws:sqs:us-east-1:000000000000:orders-dlq" "QueueArn"
ORDERS_ARN="arn:aws:sqs:us-east-1:000000000000:orders"
sqs set-queue-attributes --queue-url "$ORDERS" --attributes \
    "{\"RedrivePolicy\":\"{\\\"deadLetterTargetArn\\\":\\\"$DLQ_ARN\\\",\\\"maxReceiveCount\\\":\\\"1\\\"}\"}"
expect_match "$(sqs get-queue-attributes --queue-url "$ORDERS" --attribute-names RedrivePolicy \
    --query Attributes.RedrivePolicy)" "\"maxReceiveCount\": ?\"?1" "SetQueueAttributes RedrivePolicy"
expect_eq "$(sqs list-dead-letter-source-queues --queue-url "$DLQ" --query 'queueUrls[0]')" \
    "$ORDERS" "ListDeadLetterSourceQueues"

sqs tag-queue --queue-url "$ORDERS" --tags team=payments,tier=gold
sqs untag-queue --queue-url "$ORDERS" --tag-keys tier
expect_eq "$(sqs list-queue-tags --queue-url "$ORDERS" --query 'Tags.team')" "payments" \
    "TagQueue + ListQueueTags"
expect_eq "$(sqs list-queue-tags --queue-url "$ORDERS" --query 'Tags.tier')" "None" "UntagQueue"

sqs add-permission --queue-url "$ORDERS" --label e2e-send --aws-account-ids 111122223333 \
    --actions SendMessage
expect_match "$(sqs get-queue-attributes --queue-url "$ORDERS" --attribute-names Policy \
    --query Attributes.Policy)" "e2e-send" "AddPermission writes the Policy"
sqs remove-permission --queue-url "$ORDERS" --label e2e-send
sqs_error InvalidParameterValue "RemovePermission of an unknown label" \
    remove-permission --queue-url "$ORDERS" --label e2e-send

# ---- messages ----------------------------------------------------------------------------------
SENT=$(sqs send-message --queue-url "$ORDERS" --message-body "order 1" \
    --message-attributes '{"MyAttribute":{"DataType":"String","StringValue":"foobar"}}' \
    --query '[MD5OfMessageBody, MD5OfMessageAttributes]')
expect_eq "$SENT" "$(md5 'order 1')	adb59cd4678ea5a855436b949cd07ab6" \
    "SendMessage digests of body and attributes (spec §2.6 vector)"

BATCH=$(sqs send-message-batch --queue-url "$ORDERS" --entries \
    '[{"Id":"a","MessageBody":"order 2"},{"Id":"b","MessageBody":"late","DelaySeconds":1000},
      {"Id":"c","MessageBody":"order 3"}]' \
    --query '[join(`,`, Successful[].Id), Failed[0].Id, Failed[0].Code, Failed[0].SenderFault]')
expect_eq "$BATCH" "a,c	b	InvalidParameterValue	True" "SendMessageBatch partial failure"

RECEIVED=$(sqs receive-message --queue-url "$ORDERS" --max-number-of-messages 10 \
    --attribute-names All --message-attribute-names All --visibility-timeout 60 \
    --query 'Messages[].[Body, MD5OfBody, MD5OfMessageAttributes, ReceiptHandle]')
expect_eq "$(cut -f1 <<<"$RECEIVED" | sort | paste -sd,)" "order 1,order 2,order 3" \
    "ReceiveMessage returns every available message"
expect_eq "$(grep '^order 1' <<<"$RECEIVED" | cut -f2,3)" \
    "$(md5 'order 1')	adb59cd4678ea5a855436b949cd07ab6" "ReceiveMessage digests"
mapfile -t HANDLES < <(cut -f4 <<<"$RECEIVED")

sqs change-message-visibility --queue-url "$ORDERS" --receipt-handle "${HANDLES[0]}" \
    --visibility-timeout 120
pass "ChangeMessageVisibility"
CMVB=$(sqs change-message-visibility-batch --queue-url "$ORDERS" --entries \
    "[{\"Id\":\"ok\",\"ReceiptHandle\":\"${HANDLES[1]}\",\"VisibilityTimeout\":90},
      {\"Id\":\"bad\",\"ReceiptHandle\":\"not-a-handle\",\"VisibilityTimeout\":90}]" \
    --query '[Successful[0].Id, Failed[0].Id, Failed[0].Code]')
expect_eq "$CMVB" "ok	bad	ReceiptHandleIsInvalid" "ChangeMessageVisibilityBatch partial failure"

sqs delete-message --queue-url "$ORDERS" --receipt-handle "${HANDLES[0]}"
pass "DeleteMessage"
DMB=$(sqs delete-message-batch --queue-url "$ORDERS" --entries \
    "[{\"Id\":\"one\",\"ReceiptHandle\":\"${HANDLES[1]}\"},
      {\"Id\":\"two\",\"ReceiptHandle\":\"${HANDLES[2]}\"},
      {\"Id\":\"junk\",\"ReceiptHandle\":\"junk\"}]" \
    --query '[join(`,`, Successful[].Id), Failed[0].Id, Failed[0].Code]')
expect_eq "$DMB" "one,two	junk	ReceiptHandleIsInvalid" "DeleteMessageBatch partial failure"
expect_eq "$(sqs get-queue-attributes --queue-url "$ORDERS" --attribute-names \
    ApproximateNumberOfMessages ApproximateNumberOfMessagesNotVisible \
    --query 'Attributes.[ApproximateNumberOfMessages, ApproximateNumberOfMessagesNotVisible]')" \
    "0	0" "queue is empty after the deletes"

# ---- errors ----------------------------------------------------------------------------------------
sqs_error AWS.SimpleQueueService.NonExistentQueue "GetQueueUrl of a missing queue" \
    get-queue-url --queue-name no-such-queue
sqs_error AWS.SimpleQueueService.NonExistentQueue "SendMessage to a missing queue" \
    send-message --queue-url "$ACCOUNT_URL/no-such-queue" --message-body x
sqs_error InvalidParameterValue "ReceiveMessage with MaxNumberOfMessages 11" \
    receive-message --queue-url "$ORDERS" --max-number-of-messages 11
ELEVEN=$(/usr/bin/python3 -c 'import json; print(json.dumps([{"Id": f"m{i}", "MessageBody": "x"} for i in range(11)]))')
sqs_error AWS.SimpleQueueService.TooManyEntriesInBatchRequest "SendMessageBatch of 11 entries" \
    send-message-batch --queue-url "$ORDERS" --entries "$ELEVEN"
sqs_error QueueAlreadyExists "CreateQueue with different attributes" \
    create-queue --queue-name orders --attributes VisibilityTimeout=21

# ---- FIFO order and group blocking -----------------------------------------------------------------
for body in a1 a2 a3; do
    sqs send-message --queue-url "$JOBS" --message-group-id A --message-body "$body" >/dev/null
done
sqs send-message --queue-url "$JOBS" --message-group-id B --message-body b1 >/dev/null
sqs send-message --queue-url "$JOBS" --message-group-id A --message-body a1 >/dev/null # duplicate
FIRST=$(sqs receive-message --queue-url "$JOBS" --query 'Messages[0].[Body, ReceiptHandle]')
expect_eq "$(cut -f1 <<<"$FIRST")" "a1" "FIFO: the group's first message comes first"
expect_eq "$(sqs receive-message --queue-url "$JOBS" --max-number-of-messages 10 \
    --query 'join(`,`, Messages[].Body)')" "b1" "FIFO: group A blocked while a1 is in flight"
sqs delete-message --queue-url "$JOBS" --receipt-handle "$(cut -f2 <<<"$FIRST")"
expect_eq "$(sqs receive-message --queue-url "$JOBS" --max-number-of-messages 10 \
    --query 'join(`,`, Messages[].Body)')" "a2,a3" "FIFO: A resumes in order; the duplicate is gone"

# ---- dead-letter queue and move tasks --------------------------------------------------------------
sqs send-message --queue-url "$ORDERS" --message-body poison >/dev/null
sqs receive-message --queue-url "$ORDERS" --visibility-timeout 0 >/dev/null # receive count 1
expect_eq "$(sqs receive-message --queue-url "$ORDERS" --query 'length(Messages || `[]`)')" "0" \
    "a message past maxReceiveCount is not delivered again"
expect_eq "$(sqs receive-message --queue-url "$DLQ" --visibility-timeout 0 \
    --query 'Messages[0].Body')" "poison" "...it is in the dead-letter queue"

TASK=$(sqs start-message-move-task --source-arn "$DLQ_ARN")
expect_match "$TASK" "^[A-Za-z0-9+/=_-]+" "StartMessageMoveTask returns a task handle"
MOVED=
for _ in $(seq 40); do
    MOVED=$(sqs receive-message --queue-url "$ORDERS" --query 'Messages[0].Body')
    [[ "$MOVED" == "poison" ]] && break
    sleep 0.1
done
expect_eq "$MOVED" "poison" "the move task redrives the message to its source queue"
expect_eq "$(sqs list-message-move-tasks --source-arn "$DLQ_ARN" \
    --query 'Results[0].[Status, ApproximateNumberOfMessagesMoved]')" "COMPLETED	1" \
    "ListMessageMoveTasks shows the finished task"

sqs send-message-batch --queue-url "$DLQ" --entries \
    '[{"Id":"1","MessageBody":"x"},{"Id":"2","MessageBody":"x"},{"Id":"3","MessageBody":"x"},
      {"Id":"4","MessageBody":"x"},{"Id":"5","MessageBody":"x"}]' >/dev/null
# Engine time stands still while the slow task is looked at and cancelled (the control API): at 1
# message/s it would otherwise finish its 5 while a loaded machine runs the next two CLI calls.
curl -fsS -X POST "$INFLIGHT_URL/_inflight/v1/clock" -d '{"pause": true}' >/dev/null
SLOW=$(sqs start-message-move-task --source-arn "$DLQ_ARN" --destination-arn "$ORDERS_ARN" \
    --max-number-of-messages-per-second 1)
expect_eq "$(sqs list-message-move-tasks --source-arn "$DLQ_ARN" --query 'Results[0].Status')" \
    "RUNNING" "a slow move task is running"
expect_match "$(sqs cancel-message-move-task --task-handle "$SLOW")" "^[0-4]$" \
    "CancelMessageMoveTask reports the messages moved so far"
curl -fsS -X POST "$INFLIGHT_URL/_inflight/v1/clock" -d '{"resume": true}' >/dev/null
sqs_error ResourceNotFoundException "CancelMessageMoveTask of a finished task" \
    cancel-message-move-task --task-handle "$TASK"
sqs_error InvalidParameterValue "CancelMessageMoveTask of a malformed handle" \
    cancel-message-move-task --task-handle no-such-task

# ---- long poll answered early by a send from another client ---------------------------------------
EMPTY=$(sqs create-queue --queue-name waiting)
START=$(date +%s%N)
sqs receive-message --queue-url "$EMPTY" --wait-time-seconds 15 --query 'Messages[0].Body' \
    >"$E2E_TMP/long-poll" &
POLLER=$!
sleep 1.5
sqs send-message --queue-url "$EMPTY" --message-body wake-up >/dev/null
wait "$POLLER"
ELAPSED_MS=$((($(date +%s%N) - START) / 1000000))
expect_eq "$(cat "$E2E_TMP/long-poll")" "wake-up" "the long poll receives the message sent meanwhile"
if ((ELAPSED_MS < 6000)); then
    pass "the long poll returned after ${ELAPSED_MS} ms, well before its 15 s wait"
else
    fail "the long poll took ${ELAPSED_MS} ms"
fi

# ---- purge and delete -------------------------------------------------------------------------------
sqs purge-queue --queue-url "$ORDERS"
pass "PurgeQueue"
sqs_error AWS.SimpleQueueService.PurgeQueueInProgress "a second PurgeQueue within 60 s" \
    purge-queue --queue-url "$ORDERS"
sqs delete-queue --queue-url "$JOBS"
sqs_error AWS.SimpleQueueService.NonExistentQueue "DeleteQueue removes the queue" \
    get-queue-url --queue-name jobs.fifo

inflight_stop
e2e_finish
