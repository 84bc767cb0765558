#include "engine/error.h"

namespace inflight::engine {

std::string_view errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::QueueDoesNotExist: return "QueueDoesNotExist";
    case ErrorCode::QueueNameExists: return "QueueAlreadyExists";
    case ErrorCode::QueueDeletedRecently: return "QueueDeletedRecently";
    case ErrorCode::PurgeQueueInProgress: return "PurgeQueueInProgress";
    case ErrorCode::OverLimit: return "OverLimit";
    case ErrorCode::MessageNotInflight: return "MessageNotInflight";
    case ErrorCode::ReceiptHandleIsInvalid: return "ReceiptHandleIsInvalid";
    case ErrorCode::InvalidIdFormat: return "InvalidIdFormat";
    case ErrorCode::InvalidMessageContents: return "InvalidMessageContents";
    case ErrorCode::InvalidAttributeName: return "InvalidAttributeName";
    case ErrorCode::InvalidAttributeValue: return "InvalidAttributeValue";
    case ErrorCode::TooManyEntriesInBatchRequest: return "TooManyEntriesInBatchRequest";
    case ErrorCode::EmptyBatchRequest: return "EmptyBatchRequest";
    case ErrorCode::BatchEntryIdsNotDistinct: return "BatchEntryIdsNotDistinct";
    case ErrorCode::InvalidBatchEntryId: return "InvalidBatchEntryId";
    case ErrorCode::BatchRequestTooLong: return "BatchRequestTooLong";
    case ErrorCode::UnsupportedOperation: return "UnsupportedOperation";
    case ErrorCode::ResourceNotFound: return "ResourceNotFoundException";
    case ErrorCode::InvalidParameterValue: return "InvalidParameterValue";
    case ErrorCode::MissingParameter: return "MissingParameter";
    }
    return "InternalError";
}

std::string describe(const Error& error)
{
    std::string text(errorCodeName(error.code));
    text += ": ";
    text += error.message;
    return text;
}

std::string excerpt(std::string_view value)
{
    if (value.size() <= kMaxExcerptBytes)
        return std::string(value);
    std::size_t cut = kMaxExcerptBytes;
    // Back up over continuation bytes (10xxxxxx) so no character is cut in two.
    while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80)
        --cut;
    return std::string(value.substr(0, cut)) + "...";
}

} // namespace inflight::engine
