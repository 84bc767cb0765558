// The one place that decides how an error looks on the wire, for every protocol.
#include "protocol/error_mapping.h"

namespace inflight::protocol {

namespace {

using engine::ErrorCode;

struct SqsCodes {
    int status;
    const char* queryCode;
    const char* jsonShape;
};

// Spec §2.5: legacy Query codes and statuses from the pre-2024 query model, JSON shape names
// from the current model. All are Sender faults.
SqsCodes sqsCodes(ErrorCode code)
{
    switch (code) {
    case ErrorCode::QueueDoesNotExist:
        return {400, "AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist"};
    case ErrorCode::QueueNameExists: return {400, "QueueAlreadyExists", "QueueNameExists"};
    case ErrorCode::QueueDeletedRecently:
        return {400, "AWS.SimpleQueueService.QueueDeletedRecently", "QueueDeletedRecently"};
    case ErrorCode::PurgeQueueInProgress:
        return {403, "AWS.SimpleQueueService.PurgeQueueInProgress", "PurgeQueueInProgress"};
    case ErrorCode::OverLimit: return {403, "OverLimit", "OverLimit"};
    case ErrorCode::MessageNotInflight:
        return {400, "AWS.SimpleQueueService.MessageNotInflight", "MessageNotInflight"};
    case ErrorCode::ReceiptHandleIsInvalid:
        return {400, "ReceiptHandleIsInvalid", "ReceiptHandleIsInvalid"};
    case ErrorCode::InvalidIdFormat: return {400, "InvalidIdFormat", "InvalidIdFormat"};
    case ErrorCode::InvalidMessageContents:
        return {400, "InvalidMessageContents", "InvalidMessageContents"};
    case ErrorCode::InvalidAttributeName:
        return {400, "InvalidAttributeName", "InvalidAttributeName"};
    case ErrorCode::InvalidAttributeValue:
        return {400, "InvalidAttributeValue", "InvalidAttributeValue"};
    case ErrorCode::TooManyEntriesInBatchRequest:
        return {400, "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
                "TooManyEntriesInBatchRequest"};
    case ErrorCode::EmptyBatchRequest:
        return {400, "AWS.SimpleQueueService.EmptyBatchRequest", "EmptyBatchRequest"};
    case ErrorCode::BatchEntryIdsNotDistinct:
        return {400, "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", "BatchEntryIdsNotDistinct"};
    case ErrorCode::InvalidBatchEntryId:
        return {400, "AWS.SimpleQueueService.InvalidBatchEntryId", "InvalidBatchEntryId"};
    case ErrorCode::BatchRequestTooLong:
        return {400, "AWS.SimpleQueueService.BatchRequestTooLong", "BatchRequestTooLong"};
    case ErrorCode::UnsupportedOperation:
        return {400, "AWS.SimpleQueueService.UnsupportedOperation", "UnsupportedOperation"};
    case ErrorCode::ResourceNotFound:
        return {404, "ResourceNotFoundException", "ResourceNotFoundException"};
    case ErrorCode::InvalidParameterValue:
        return {400, "InvalidParameterValue", "InvalidParameterValueException"};
    case ErrorCode::MissingParameter:
        return {400, "MissingParameter", "MissingRequiredParameterException"};
    }
    return {500, "InternalError", "InternalError"};
}

SqsWireError makeSqs(int status, const char* queryCode, const char* jsonShape, QString message)
{
    // A 5xx is ours to fix, never the client's.
    return {status, QByteArray(queryCode), QByteArray(jsonShape), std::move(message), status < 500};
}

OciWireError makeOci(int status, const char* code, QString message)
{
    return {status, QByteArray(code), std::move(message)};
}

} // namespace

SqsWireError sqsWireError(const engine::Error& error)
{
    const SqsCodes codes = sqsCodes(error.code);
    return makeSqs(codes.status, codes.queryCode, codes.jsonShape,
                   QString::fromStdString(error.message));
}

SqsWireError sqsWireError(ProtocolError error, const QString& message)
{
    switch (error) {
    case ProtocolError::InvalidAction:
        return makeSqs(400, "InvalidAction", "InvalidAction", message);
    case ProtocolError::MissingAction:
        return makeSqs(400, "MissingAction", "MissingAction", message);
    case ProtocolError::UnknownOperation:
        return makeSqs(400, "UnknownOperationException", "UnknownOperationException", message);
    case ProtocolError::MalformedBody:
        return makeSqs(400, "SerializationException", "SerializationException", message);
    case ProtocolError::MalformedQuery:
        return makeSqs(400, "MalformedQueryString", "MalformedQueryString", message);
    case ProtocolError::RequestEntityTooLarge:
        return makeSqs(413, "RequestEntityTooLarge", "RequestEntityTooLarge", message);
    case ProtocolError::NotStored: return makeSqs(500, "InternalError", "InternalError", message);
    case ProtocolError::MalformedHttp:
        return makeSqs(400, "MalformedHttpRequest", "MalformedHttpRequestException", message);
    case ProtocolError::Forbidden:
        return makeSqs(403, "AccessDenied", "AccessDeniedException", message);
    }
    return makeSqs(500, "InternalError", "InternalError", message);
}

OciWireError ociWireError(const engine::Error& error)
{
    QString message = QString::fromStdString(error.message);
    switch (error.code) {
    case ErrorCode::QueueDoesNotExist:
    case ErrorCode::ResourceNotFound:
        return makeOci(404, "NotAuthorizedOrNotFound", std::move(message));
    case ErrorCode::MissingParameter: return makeOci(400, "MissingParameter", std::move(message));
    case ErrorCode::QueueNameExists:
    case ErrorCode::QueueDeletedRecently:
    case ErrorCode::PurgeQueueInProgress:
    case ErrorCode::MessageNotInflight: return makeOci(409, "Conflict", std::move(message));
    case ErrorCode::OverLimit: return makeOci(429, "TooManyRequests", std::move(message));
    case ErrorCode::ReceiptHandleIsInvalid:
    case ErrorCode::InvalidIdFormat:
    case ErrorCode::InvalidMessageContents:
    case ErrorCode::InvalidAttributeName:
    case ErrorCode::InvalidAttributeValue:
    case ErrorCode::TooManyEntriesInBatchRequest:
    case ErrorCode::EmptyBatchRequest:
    case ErrorCode::BatchEntryIdsNotDistinct:
    case ErrorCode::InvalidBatchEntryId:
    case ErrorCode::BatchRequestTooLong:
    case ErrorCode::UnsupportedOperation:
    case ErrorCode::InvalidParameterValue:
        return makeOci(400, "InvalidParameter", std::move(message));
    }
    return makeOci(500, "InternalServerError", std::move(message));
}

OciWireError ociWireError(ProtocolError error, const QString& message)
{
    switch (error) {
    case ProtocolError::InvalidAction:
    case ProtocolError::UnknownOperation: return makeOci(404, "NotAuthorizedOrNotFound", message);
    case ProtocolError::MissingAction:
    case ProtocolError::MalformedBody:
    case ProtocolError::MalformedQuery: return makeOci(400, "InvalidParameter", message);
    case ProtocolError::RequestEntityTooLarge:
        return makeOci(413, "RequestEntityTooLarge", message);
    case ProtocolError::NotStored: return makeOci(500, "InternalServerError", message);
    case ProtocolError::MalformedHttp: return makeOci(400, "CannotParseRequest", message);
    case ProtocolError::Forbidden: return makeOci(401, "NotAuthenticated", message);
    }
    return makeOci(500, "InternalServerError", message);
}

} // namespace inflight::protocol
