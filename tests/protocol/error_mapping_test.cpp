// The wire form of every engine error (spec §2.5 table; OCI §6.1), as a table.
#include "protocol/error_mapping.h"

#include <gtest/gtest.h>

namespace inflight::protocol {
namespace {

using engine::ErrorCode;

struct SqsRow {
    ErrorCode code;
    int status;
    const char* queryCode;
    const char* jsonShape;
};

void PrintTo(const SqsRow& r, std::ostream* os)
{
    *os << r.queryCode;
}

class SqsErrorMapping : public ::testing::TestWithParam<SqsRow> {};

TEST_P(SqsErrorMapping, matchesTheSpecTable)
{
    const SqsRow row = GetParam();
    const SqsWireError wire = sqsWireError(engine::makeError(row.code, "text"));
    EXPECT_EQ(wire.status, row.status);
    EXPECT_EQ(wire.queryCode.toStdString(), row.queryCode);
    EXPECT_EQ(wire.jsonShape.toStdString(), row.jsonShape);
    EXPECT_EQ(wire.message, QStringLiteral("text"));
    EXPECT_STREQ(wire.fault(), "Sender"); // every engine error is the client's to fix
}

INSTANTIATE_TEST_SUITE_P(
    EveryEngineError, SqsErrorMapping,
    ::testing::Values(
        SqsRow{ErrorCode::QueueDoesNotExist, 400, "AWS.SimpleQueueService.NonExistentQueue",
               "QueueDoesNotExist"},
        SqsRow{ErrorCode::QueueNameExists, 400, "QueueAlreadyExists", "QueueNameExists"},
        SqsRow{ErrorCode::QueueDeletedRecently, 400, "AWS.SimpleQueueService.QueueDeletedRecently",
               "QueueDeletedRecently"},
        SqsRow{ErrorCode::PurgeQueueInProgress, 403, "AWS.SimpleQueueService.PurgeQueueInProgress",
               "PurgeQueueInProgress"},
        SqsRow{ErrorCode::OverLimit, 403, "OverLimit", "OverLimit"},
        SqsRow{ErrorCode::MessageNotInflight, 400, "AWS.SimpleQueueService.MessageNotInflight",
               "MessageNotInflight"},
        SqsRow{ErrorCode::ReceiptHandleIsInvalid, 400, "ReceiptHandleIsInvalid",
               "ReceiptHandleIsInvalid"},
        SqsRow{ErrorCode::InvalidIdFormat, 400, "InvalidIdFormat", "InvalidIdFormat"},
        SqsRow{ErrorCode::InvalidMessageContents, 400, "InvalidMessageContents",
               "InvalidMessageContents"},
        SqsRow{ErrorCode::InvalidAttributeName, 400, "InvalidAttributeName",
               "InvalidAttributeName"},
        SqsRow{ErrorCode::InvalidAttributeValue, 400, "InvalidAttributeValue",
               "InvalidAttributeValue"},
        SqsRow{ErrorCode::TooManyEntriesInBatchRequest, 400,
               "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
               "TooManyEntriesInBatchRequest"},
        SqsRow{ErrorCode::EmptyBatchRequest, 400, "AWS.SimpleQueueService.EmptyBatchRequest",
               "EmptyBatchRequest"},
        SqsRow{ErrorCode::BatchEntryIdsNotDistinct, 400,
               "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", "BatchEntryIdsNotDistinct"},
        SqsRow{ErrorCode::InvalidBatchEntryId, 400, "AWS.SimpleQueueService.InvalidBatchEntryId",
               "InvalidBatchEntryId"},
        SqsRow{ErrorCode::BatchRequestTooLong, 400, "AWS.SimpleQueueService.BatchRequestTooLong",
               "BatchRequestTooLong"},
        SqsRow{ErrorCode::UnsupportedOperation, 400, "AWS.SimpleQueueService.UnsupportedOperation",
               "UnsupportedOperation"},
        SqsRow{ErrorCode::ResourceNotFound, 404, "ResourceNotFoundException",
               "ResourceNotFoundException"},
        SqsRow{ErrorCode::InvalidParameterValue, 400, "InvalidParameterValue",
               "InvalidParameterValueException"},
        SqsRow{ErrorCode::MissingParameter, 400, "MissingParameter",
               "MissingRequiredParameterException"}));

struct OciRow {
    ErrorCode code;
    int status;
    const char* ociCode;
};

void PrintTo(const OciRow& r, std::ostream* os)
{
    *os << r.ociCode;
}

class OciErrorMapping : public ::testing::TestWithParam<OciRow> {};

TEST_P(OciErrorMapping, followsOciConventions)
{
    const OciRow row = GetParam();
    const OciWireError wire = ociWireError(engine::makeError(row.code, "text"));
    EXPECT_EQ(wire.status, row.status);
    EXPECT_EQ(wire.code.toStdString(), row.ociCode);
    EXPECT_EQ(wire.message, QStringLiteral("text"));
}

INSTANTIATE_TEST_SUITE_P(
    EveryEngineError, OciErrorMapping,
    ::testing::Values(OciRow{ErrorCode::QueueDoesNotExist, 404, "NotAuthorizedOrNotFound"},
                      OciRow{ErrorCode::ResourceNotFound, 404, "NotAuthorizedOrNotFound"},
                      OciRow{ErrorCode::InvalidParameterValue, 400, "InvalidParameter"},
                      OciRow{ErrorCode::MissingParameter, 400, "MissingParameter"},
                      OciRow{ErrorCode::ReceiptHandleIsInvalid, 400, "InvalidParameter"},
                      OciRow{ErrorCode::TooManyEntriesInBatchRequest, 400, "InvalidParameter"},
                      OciRow{ErrorCode::EmptyBatchRequest, 400, "InvalidParameter"},
                      OciRow{ErrorCode::InvalidAttributeValue, 400, "InvalidParameter"},
                      OciRow{ErrorCode::QueueNameExists, 409, "Conflict"},
                      OciRow{ErrorCode::PurgeQueueInProgress, 409, "Conflict"},
                      OciRow{ErrorCode::MessageNotInflight, 409, "Conflict"},
                      OciRow{ErrorCode::OverLimit, 429, "TooManyRequests"}));

TEST(ProtocolErrorMapping, codecErrorsHaveTheirOwnCodes)
{
    const QString text = QStringLiteral("text");
    EXPECT_EQ(sqsWireError(ProtocolError::InvalidAction, text).queryCode, "InvalidAction");
    EXPECT_EQ(sqsWireError(ProtocolError::MissingAction, text).queryCode, "MissingAction");
    EXPECT_EQ(sqsWireError(ProtocolError::UnknownOperation, text).jsonShape,
              "UnknownOperationException");
    EXPECT_EQ(sqsWireError(ProtocolError::MalformedBody, text).jsonShape, "SerializationException");
    const SqsWireError tooLarge = sqsWireError(ProtocolError::RequestEntityTooLarge, text);
    EXPECT_EQ(tooLarge.status, 413);
    EXPECT_EQ(tooLarge.queryCode, "RequestEntityTooLarge");
    EXPECT_EQ(tooLarge.jsonShape, "RequestEntityTooLarge");
    EXPECT_STREQ(tooLarge.fault(), "Sender");
    EXPECT_EQ(ociWireError(ProtocolError::RequestEntityTooLarge, text).status, 413);
    EXPECT_EQ(ociWireError(ProtocolError::UnknownOperation, text).status, 404);
}

TEST(ProtocolErrorMapping, aChangeTheWorkspaceCouldNotStoreIsA500ThatIsOurFault)
{
    const QString text = QStringLiteral("The disk is full.");
    const SqsWireError sqs = sqsWireError(ProtocolError::NotStored, text);
    EXPECT_EQ(sqs.status, 500);
    EXPECT_EQ(sqs.queryCode, "InternalError");
    EXPECT_EQ(sqs.jsonShape, "InternalError");
    EXPECT_EQ(sqs.message, text);
    EXPECT_FALSE(sqs.senderFault);
    EXPECT_STREQ(sqs.fault(), "Receiver");
    const OciWireError oci = ociWireError(ProtocolError::NotStored, text);
    EXPECT_EQ(oci.status, 500);
    EXPECT_EQ(oci.code, "InternalServerError");
    EXPECT_EQ(oci.message, text);
}

} // namespace
} // namespace inflight::protocol
