#pragma once

#include "engine/requests.h"
#include "protocol/batch_answer.h"
#include "protocol/error_mapping.h"
#include "protocol/http_types.h"
#include "protocol/send_answer.h"
#include "protocol/sqs_output.h"
#include "protocol/sqs_request.h"

#include <QString>

#include <cstdint>
#include <string_view>

namespace inflight::protocol {

enum class SqsProtocol { Json, Query };

// Spec §2.2: an `X-Amz-Target` header or a content type starting `application/x-amz-json` means
// AWS JSON 1.0; anything else is Query.
SqsProtocol detectSqsProtocol(const HttpRequest& request);

// A decoded request, or the error that stopped decoding (bad JSON, no Action).
using DecodedSqsRequest = WireResult<SqsRequest>;

// Puts results and errors of one request on the wire in its protocol. Cheap to copy: a deferred
// receive keeps one to answer later.
class SqsResponder {
public:
    SqsResponder(SqsProtocol protocol, QString action);

    // `output` holds the action's output members in JSON shape (see sqs_output.h).
    HttpResponse success(const Output& output) const;
    // ReceiveMessage's answer, written from the result (receive_answer.h).
    HttpResponse success(const engine::ReceiveResult& result) const;
    // A batch of ids' answer (batch_answer.h).
    HttpResponse success(const IdBatch& batch) const;
    // SendMessage's answer (send_answer.h).
    HttpResponse success(const SendAnswer& answer) const;
    HttpResponse error(const SqsWireError& error) const;
    HttpResponse error(const engine::Error& error) const;

private:
    SqsProtocol m_protocol;
    QString m_action;
};

// A fresh request id (UUID) for x-amzn-RequestId / <RequestId>.
QByteArray newRequestId();
// Makes newRequestId() a reproducible stream from `seed` on threads that have not made an id yet
// (`inflight --seed`); without it each thread seeds from the system's entropy.
void seedRequestIds(std::uint64_t seed);

namespace json {
// The body of an AWS JSON 1.0 request; the action from `X-Amz-Target: AmazonSQS.<Action>`.
DecodedSqsRequest decodeRequest(const HttpRequest& request);
HttpResponse success(const Output& output);
HttpResponse success(const engine::ReceiveResult& result);
HttpResponse success(const IdBatch& batch);
HttpResponse success(const SendAnswer& answer);
HttpResponse error(const SqsWireError& error);
// Whether the SQS model gives the member of that name an integer shape (DelaySeconds,
// VisibilityTimeout, ...): in JSON it is a number, where the Query protocol carries it as text.
bool isIntegerMember(std::string_view member);
} // namespace json

namespace query {
// The parameters of the query string and (for POST) the form body, folded into the JSON member
// tree (§2.3).
DecodedSqsRequest decodeRequest(const HttpRequest& request);
// `<ActionResponse xmlns=…><ActionResult>…</ActionResult><ResponseMetadata>…` with the
// flattened lists and maps of §2.4.
HttpResponse success(const QString& action, const Output& output);
HttpResponse success(const engine::ReceiveResult& result);
HttpResponse success(const QString& action, const IdBatch& batch);
HttpResponse success(const SendAnswer& answer);
HttpResponse error(const SqsWireError& error);
} // namespace query

} // namespace inflight::protocol
