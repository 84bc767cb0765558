#!/usr/bin/env bash
# OCI Queue REST (spec §6.1) with plain curl against `inflight --headless`: PutMessages,
# GetMessages (limit, visibility, long poll, channel filter), UpdateMessage(s),
# DeleteMessage(s), GetStats, ListChannels, the delivery-count DLQ and OCI errors.
# Run by ctest (label e2e).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# OCI queues come from the command line: the REST API has no call that creates one.
inflight_start --oci-queue orders --oci-queue 'retry:deadLetterQueueDeliveryCount=2'

BASE="$INFLIGHT_URL/20210201/queues"
# oci METHOD PATH [JSON BODY]: prints "<status> <body>"
oci() {
    local method=$1 path=$2 body=${3:-} out status
    out=$(mktemp -p "$E2E_TMP") # one per call: a long poll runs beside other calls
    local args=(-s -o "$out" -w '%{http_code}' -X "$method" -H 'opc-request-id: e2e-1')
    [[ -n "$body" ]] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
    status=$(curl "${args[@]}" "$BASE/$path")
    printf '%s %s' "$status" "$(cat "$out")"
    rm -f "$out"
}
# json EXPRESSION: evaluates a Python expression over the JSON document `d` read from stdin
# (after the status), e.g. json 'len(d["messages"])'.
json() {
    /usr/bin/python3 -c "import json, sys; d = json.loads(sys.stdin.read().split(' ', 1)[1] or 'null'); print(($1))"
}
status() { cut -d' ' -f1 <<<"$1"; }

# ---- put, get, update, delete ------------------------------------------------------------------
PUT=$(oci POST orders/messages '{"messages":[{"content":"first"},{"content":"second"},
    {"content":"in a channel","metadata":{"channelId":"eu","customProperties":{"k":"v"}}}]}')
expect_eq "$(status "$PUT")" 200 "PutMessages"
expect_eq "$(json 'len(d["messages"]), all(isinstance(m["id"], int) and m["expireAfter"] for m in d["messages"])' <<<"$PUT")" \
    "(3, True)" "PutMessages returns an id and expireAfter per message"

expect_eq "$(json 'sorted(d["items"])' <<<"$(oci GET orders/channels)")" "['eu']" \
    "ListChannels lists the non-empty channel"
STATS=$(oci GET orders/stats)
expect_eq "$(json 'd["queue"]["visibleMessages"], d["queue"]["inFlightMessages"], d["dlq"]["visibleMessages"]' <<<"$STATS")" \
    "(3, 0, 0)" "GetStats counts visible and in-flight messages"

GOT=$(oci GET 'orders/messages?channelFilter=eu&limit=5&visibilityInSeconds=30&timeoutInSeconds=0')
expect_eq "$(json '[m["content"] for m in d["messages"]], d["messages"][0]["metadata"]' <<<"$GOT")" \
    "(['in a channel'], {'channelId': 'eu', 'customProperties': {'k': 'v'}})" \
    "GetMessages with channelFilter returns only that channel"
CHANNEL_RECEIPT=$(json 'd["messages"][0]["receipt"]' <<<"$GOT")

GOT=$(oci GET 'orders/messages?limit=5&visibilityInSeconds=30&timeoutInSeconds=0')
# Without a filter, GetMessages serves one channel (or the queue level) at a time; the queue level
# here holds the two plain messages.
mapfile -t RECEIPTS < <(json '"\n".join(m["receipt"] for m in d["messages"])' <<<"$GOT")
expect_eq "$(json 'sorted(m["content"] for m in d["messages"]), d["messages"][0]["deliveryCount"]' <<<"$GOT")" \
    "(['first', 'second'], 1)" "GetMessages returns the visible messages with their delivery count"

UPDATED=$(oci PUT "orders/messages/${RECEIPTS[0]}" '{"visibilityInSeconds":120}')
expect_eq "$(status "$UPDATED")" 200 "UpdateMessage"
expect_eq "$(json '"visibleAfter" in d and "id" in d' <<<"$UPDATED")" "True" \
    "UpdateMessage returns the new visibleAfter"
BATCH=$(oci POST orders/messages/actions/updateMessages \
    "{\"entries\":[{\"receipt\":\"${RECEIPTS[1]}\",\"visibilityInSeconds\":60},{\"receipt\":\"garbage\",\"visibilityInSeconds\":60}]}")
expect_eq "$(json 'd["clientFailures"], "visibleAfter" in d["entries"][0], d["entries"][1]["errorCode"]' <<<"$BATCH")" \
    "(1, True, 400)" "UpdateMessages: partial failure, entries in request order"

DELETED=$(oci POST orders/messages/actions/deleteMessages \
    "{\"entries\":[{\"receipt\":\"${RECEIPTS[0]}\"},{\"receipt\":\"garbage\"},{\"receipt\":\"${RECEIPTS[1]}\"}]}")
expect_eq "$(json 'd["clientFailures"], d["serverFailures"], d["entries"][0], "errorMessage" in d["entries"][1], d["entries"][2]' <<<"$DELETED")" \
    "(1, 0, {}, True, {})" "DeleteMessages: partial failure, entries in request order"
expect_eq "$(status "$(oci DELETE "orders/messages/$CHANNEL_RECEIPT")")" 200 "DeleteMessage"
expect_eq "$(json 'd["queue"]["visibleMessages"] + d["queue"]["inFlightMessages"]' <<<"$(oci GET orders/stats)")" \
    "0" "the queue is empty after the deletes"

# ---- long poll answered early ------------------------------------------------------------------
START=$(date +%s%N)
oci GET 'orders/messages?timeoutInSeconds=20' >"$E2E_TMP/long-poll" &
POLLER=$!
sleep 0.5
oci POST orders/messages '{"messages":[{"content":"wake up"}]}' >/dev/null
wait "$POLLER"
ELAPSED_MS=$((($(date +%s%N) - START) / 1000000))
expect_eq "$(json 'd["messages"][0]["content"]' <"$E2E_TMP/long-poll")" "wake up" \
    "a waiting GetMessages gets the message put meanwhile"
if ((ELAPSED_MS < 3000)); then
    pass "the long poll returned after ${ELAPSED_MS} ms of its 20 s"
else
    fail "the long poll took ${ELAPSED_MS} ms"
fi

# ---- delivery-count dead-letter queue ----------------------------------------------------------
oci POST retry/messages '{"messages":[{"content":"poison"}]}' >/dev/null
for attempt in 1 2; do
    expect_eq "$(json 'len(d["messages"])' <<<"$(oci GET 'retry/messages?visibilityInSeconds=0&timeoutInSeconds=0')")" \
        1 "delivery $attempt of a message with deadLetterQueueDeliveryCount=2"
done
expect_eq "$(json 'len(d["messages"])' <<<"$(oci GET 'retry/messages?timeoutInSeconds=0')")" 0 \
    "no third delivery"
expect_eq "$(json 'd["dlq"]["visibleMessages"]' <<<"$(oci GET retry/stats)")" 1 \
    "GetStats shows it in the DLQ"

# ---- errors ---------------------------------------------------------------------------------------
expect_eq "$(json 'd["code"]' <<<"$(oci GET 'orders/messages?limit=21')")" "InvalidParameter" \
    "limit 21 is refused"
MISSING=$(oci GET nowhere/messages)
expect_eq "$(status "$MISSING") $(json 'd["code"]' <<<"$MISSING")" "404 NotAuthorizedOrNotFound" \
    "an unknown queue is 404 NotAuthorizedOrNotFound"
HEADERS=$(curl -s -D - -o /dev/null "$BASE/orders/stats" -H 'opc-request-id: trace-42')
expect_match "$HEADERS" $'opc-request-id: trace-42\r' "opc-request-id is echoed"

inflight_stop
e2e_finish
