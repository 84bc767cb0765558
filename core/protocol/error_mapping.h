#pragma once

#include "engine/error.h"

#include <QByteArray>
#include <QString>

namespace inflight::protocol {

// An SQS error as both protocols put it on the wire (spec §2.5).
struct SqsWireError {
    int status = 400;
    QByteArray queryCode; // Query <Code>, x-amzn-query-error code, batch entry Code
    QByteArray jsonShape; // JSON __type suffix after "com.amazonaws.sqs#"
    QString message;
    // Whose fault it is: the client's (every error the client can fix), or ours (a 500).
    bool senderFault = true;

    // "Sender" or "Receiver": the Query <Type> and the second part of x-amzn-query-error.
    const char* fault() const { return senderFault ? "Sender" : "Receiver"; }
};

// The protocol layer's Result: a value, or the error the SQS wire answers instead (a signature
// that does not hold, a body that is not what the action takes).
template <class T>
using WireResult = engine::Result<T, SqsWireError>;
using WireStatus = WireResult<engine::Done>;

// Errors of the transport or the codecs themselves, which the engine never reports.
enum class ProtocolError {
    InvalidAction,         // Query: unknown Action (400 InvalidAction)
    MissingAction,         // Query: no Action parameter (400 MissingAction)
    UnknownOperation,      // JSON: unknown X-Amz-Target (400 UnknownOperationException)
    MalformedBody,         // JSON: body is not a JSON object (400 SerializationException)
    MalformedQuery,        // Query: a name too deep, or not UTF-8 (400 MalformedQueryString)
    RequestEntityTooLarge, // body over kMaxRequestBody (413 RequestEntityTooLarge)
    NotStored,     // the workspace could not store the change (500 InternalError, Receiver fault)
    MalformedHttp, // bytes that break HTTP/1.1 (400 MalformedHttpRequest; OCI CannotParseRequest)
    Forbidden,     // a foreign Origin or Host, a browser's mutating GET (403 AccessDenied; OCI 401)
};

// The engine's error on the SQS wire: the table of §2.5 (all Sender faults).
SqsWireError sqsWireError(const engine::Error& error);
// The spec gives no SQS code for a failure of our own; NotStored is 500 `InternalError` (JSON
// shape and Query code alike), a Receiver fault, which SDKs retry. Nor for a form we cannot read:
// MalformedQuery is 400 `MalformedQueryString`, the AWS-wide Query code for a query string with a
// syntax error (AWS's common-errors table gives it 404; a request's own fault is a 400 here).
SqsWireError sqsWireError(ProtocolError error, const QString& message);

// An OCI REST error: `{"code": …, "message": …}` with an HTTP status (§6.1).
struct OciWireError {
    int status = 400;
    QByteArray code;
    QString message;
};

// QueueDoesNotExist and ResourceNotFound ⇒ 404 NotAuthorizedOrNotFound; MissingParameter ⇒ 400
// MissingParameter; conflicts with the queue's state (name taken, purge in progress, message not
// in flight) ⇒ 409 Conflict; OverLimit ⇒ 429 TooManyRequests; every other (invalid input,
// receipt handles included) ⇒ 400 InvalidParameter.
OciWireError ociWireError(const engine::Error& error);
// NotStored ⇒ 500 InternalServerError (OCI API conventions, §6.1); a body or query string that
// cannot be read ⇒ 400 InvalidParameter.
OciWireError ociWireError(ProtocolError error, const QString& message);

} // namespace inflight::protocol
