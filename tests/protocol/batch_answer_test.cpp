// DeleteMessageBatch's and ChangeMessageVisibilityBatch's answers are written straight from the
// entries' ids (batch_answer.h). They were printed from an Output tree before, by the codecs'
// generic printers; that tree, built as the actions built it, stays here as the reference.
#include "protocol/batch_answer.h"

#include "protocol/sqs_codec.h"
#include "protocol/sqs_output.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace protocol = inflight::protocol;
namespace engine = inflight::engine;
using protocol::Output;
using protocol::OutputObject;

namespace {

// The tree the batch actions returned until the answer was written directly.
Output referenceOutput(const engine::BatchResult<engine::Done>& result)
{
    Output successful = Output::array();
    for (const auto& success : result.successful)
        successful.push_back(OutputObject().add("Id", success.id).take());
    Output failed = Output::array();
    for (const auto& failure : result.failed) {
        const protocol::SqsWireError wire = protocol::sqsWireError(failure.error);
        failed.push_back(OutputObject()
                             .add("Code", wire.queryCode.toStdString())
                             .add("Id", failure.id)
                             .add("Message", wire.message.toStdString())
                             .add("SenderFault", failure.senderFault)
                             .take());
    }
    return OutputObject()
        .add("Failed", std::move(failed))
        .add("Successful", std::move(successful))
        .take();
}

QByteArray withoutRequestId(const protocol::HttpResponse& response)
{
    const qsizetype metadata = response.body.indexOf("<ResponseMetadata>");
    return metadata < 0 ? response.body : response.body.left(metadata);
}

void expectSameAnswers(const engine::BatchResult<engine::Done>& result)
{
    const Output reference = referenceOutput(result);
    const protocol::IdBatch batch = protocol::idBatchOf(result);
    EXPECT_EQ(protocol::json::success(batch).body.toStdString(),
              protocol::json::success(reference).body.toStdString());
    for (const char* action : {"DeleteMessageBatch", "ChangeMessageVisibilityBatch"}) {
        const QString name = QString::fromLatin1(action);
        EXPECT_EQ(withoutRequestId(protocol::query::success(name, batch)).toStdString(),
                  withoutRequestId(protocol::query::success(name, reference)).toStdString());
    }
}

engine::BatchResult<engine::Done>::Failure failure(std::string id, engine::ErrorCode code,
                                                   std::string message, bool senderFault = true)
{
    return {std::move(id), engine::makeError(code, std::move(message)), senderFault};
}

} // namespace

TEST(BatchAnswer, anAllSuccessfulBatchIsWrittenAsTheTreeWas)
{
    engine::BatchResult<engine::Done> result;
    for (const char* id : {"a", "b-2", "entry_3"})
        result.successful.push_back({id, engine::Done{}});
    expectSameAnswers(result);
    EXPECT_EQ(protocol::json::success(protocol::idBatchOf(result)).body,
              "{\"Failed\":[],\"Successful\":[{\"Id\":\"a\"},{\"Id\":\"b-2\"},"
              "{\"Id\":\"entry_3\"}]}");
}

TEST(BatchAnswer, failuresAreWrittenAsTheTreeWas)
{
    engine::BatchResult<engine::Done> result;
    result.successful.push_back({"ok", engine::Done{}});
    result.failed.push_back(failure("bad", engine::ErrorCode::ReceiptHandleIsInvalid,
                                    "The receipt handle \"x<y>&z\" is not valid."));
    result.failed.push_back(
        failure("other", engine::ErrorCode::InvalidParameterValue, "caf\xC3\xA9", false));
    expectSameAnswers(result);
    const engine::BatchResult<engine::Done> none;
    expectSameAnswers(none);
}

TEST(BatchAnswer, randomBatchesAreWrittenAsTheTreeWas)
{
    std::mt19937 random(1205);
    // Every other round ids of the characters ids may have (letters, digits, '-', '_'), which are
    // written without the escaping checks, else of any.
    const std::string anyCharacters = "abcXYZ019-_\"\\<>&\t";
    const std::string idCharacters = "abcXYZ019-_";
    std::string alphabet;
    const auto text = [&] {
        std::string out;
        for (int i = int(random() % 12); i > 0; --i)
            out += alphabet[random() % alphabet.size()];
        return out;
    };
    for (int round = 0; round < 300; ++round) {
        alphabet = round % 2 ? idCharacters : anyCharacters;
        engine::BatchResult<engine::Done> result;
        for (int i = int(random() % 11); i > 0; --i) {
            if (random() % 4)
                result.successful.push_back({text(), engine::Done{}});
            else
                result.failed.push_back(failure(text(), engine::ErrorCode::ReceiptHandleIsInvalid,
                                                text(), random() % 2 == 0));
        }
        SCOPED_TRACE(round);
        expectSameAnswers(result);
    }
}
