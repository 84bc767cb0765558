// AWS JSON 1.0 bodies the deserializer refuses, as a SerializationException (HTTP 400), instead
// of carrying out what could be read of them: a member of the wrong JSON type (spec §2.2: strings
// are strings, integers numbers, maps objects, lists arrays), where it used to be dropped;
// integers may also come as decimal strings, null is an absent member, and the Query protocol,
// where everything is a string, is not concerned. And a body nested deeper than 32 levels, read
// with recursion bounded by that.
#include "protocol_fixture.h"

#include <QJsonArray>

namespace inflight::protocol::testing {
namespace {

struct ShapeCase {
    const char* action;
    const char* members; // after "QueueUrl", or the whole body for CreateQueue
};

void PrintTo(const ShapeCase& c, std::ostream* os)
{
    *os << c.action << ' ' << c.members;
}

class JsonBodyTest : public ProtocolTest {
protected:
    QString url;

    void SetUp() override { url = createQueue("q"); }

    QByteArray withUrl(const QByteArray& members) const
    {
        return "{\"QueueUrl\":\"" + url.toUtf8() + "\"" + (members.isEmpty() ? "" : "," + members)
            + "}";
    }

    static void expectSerializationException(const HttpResponse& response)
    {
        EXPECT_EQ(response.status, 400) << response.body.toStdString();
        EXPECT_EQ(object(response).value(QStringLiteral("__type")).toString(),
                  QStringLiteral("com.amazonaws.sqs#SerializationException"))
            << response.body.toStdString();
        EXPECT_EQ(response.header("x-amzn-query-error"), "SerializationException;Sender");
    }

    QString message(const HttpResponse& response)
    {
        return object(response).value(QStringLiteral("message")).toString();
    }

    std::int64_t messagesInQ()
    {
        const auto attributes = broker.getQueueAttributes("q", {"ApproximateNumberOfMessages"});
        return std::stoll(attributes->at("ApproximateNumberOfMessages"));
    }
};

TEST_F(JsonBodyTest, aNumberForAQueueAttributeIsSerializationExceptionAndCreatesNothing)
{
    // The reported case: the attribute used to be dropped and the queue created with 30 s.
    const HttpResponse response
        = json("CreateQueue", R"({"QueueName":"q2","Attributes":{"VisibilityTimeout":45}})");
    expectSerializationException(response);
    EXPECT_EQ(message(response),
              QStringLiteral("The member Attributes.VisibilityTimeout must be a string, not a "
                             "number."));
    EXPECT_FALSE(broker.getQueue("q2").ok());
}

TEST_F(JsonBodyTest, theMemberPathNamesListItemsByIndex)
{
    const HttpResponse response = json(
        "SendMessageBatch",
        withUrl(R"("Entries":[{"Id":"a","MessageBody":"m"},{"Id":"b","MessageBody":["m"]}])"));
    expectSerializationException(response);
    EXPECT_EQ(message(response),
              QStringLiteral("The member Entries[1].MessageBody must be a string, not an array."));
    EXPECT_EQ(messagesInQ(), 0);
}

TEST_F(JsonBodyTest, aLongMapKeyIsQuotedOnlyInPart)
{
    const QByteArray key(100'000, 'k');
    const HttpResponse response = json("TagQueue", withUrl("\"Tags\":{\"" + key + "\":1}"));
    expectSerializationException(response);
    EXPECT_LT(message(response).size(), 1'200);
}

class JsonShapeCases : public JsonBodyTest, public ::testing::WithParamInterface<ShapeCase> {};

TEST_P(JsonShapeCases, isSerializationExceptionAndChangesNothing)
{
    const ShapeCase& c = GetParam();
    const QByteArray action(c.action);
    const QByteArray body = action == "CreateQueue" ? QByteArray(c.members) : withUrl(c.members);
    expectSerializationException(json(action, body));
    EXPECT_FALSE(broker.getQueue("created").ok());
    EXPECT_EQ(messagesInQ(), 0);
    EXPECT_TRUE(broker.listQueueTags("q")->empty());
}

// One case per member kind the actions read, in each way its JSON type can be wrong.
INSTANTIATE_TEST_SUITE_P(
    EveryMemberKind, JsonShapeCases,
    ::testing::Values(
        // string maps: Attributes, tags, Tags
        ShapeCase{"CreateQueue", R"({"QueueName":"created","Attributes":{"DelaySeconds":{}}})"},
        ShapeCase{"CreateQueue", R"({"QueueName":"created","Attributes":{"DelaySeconds":null}})"},
        ShapeCase{"CreateQueue", R"({"QueueName":"created","Attributes":[["DelaySeconds","1"]]})"},
        ShapeCase{"CreateQueue", R"({"QueueName":"created","Attributes":"DelaySeconds=1"})"},
        ShapeCase{"CreateQueue", R"({"QueueName":"created","tags":{"team":1}})"},
        ShapeCase{"CreateQueue", R"({"QueueName":"created","tags":["team"]})"},
        ShapeCase{"SetQueueAttributes", R"("Attributes":{"VisibilityTimeout":true})"},
        ShapeCase{"TagQueue", R"("Tags":{"team":["a"]})"},
        ShapeCase{"TagQueue", R"("Tags":"team")"},
        // string lists: TagKeys, AttributeNames, MessageAttributeNames, AWSAccountIds, Actions
        ShapeCase{"UntagQueue", R"("TagKeys":"team")"}, ShapeCase{"UntagQueue", R"("TagKeys":[1])"},
        ShapeCase{"GetQueueAttributes", R"("AttributeNames":"All")"},
        ShapeCase{"GetQueueAttributes", R"("AttributeNames":[["All"]])"},
        ShapeCase{"ReceiveMessage", R"("MessageAttributeNames":[{"Name":"All"}])"},
        ShapeCase{"ReceiveMessage", R"("MessageSystemAttributeNames":[null])"},
        ShapeCase{"AddPermission",
                  R"("Label":"l","AWSAccountIds":"000000000000","Actions":["SendMessage"])"},
        ShapeCase{"AddPermission", R"("Label":"l","AWSAccountIds":["000000000000"],"Actions":[7])"},
        // strings
        ShapeCase{"CreateQueue", R"({"QueueName":["created"]})"},
        ShapeCase{"SendMessage", R"("MessageBody":5)"},
        ShapeCase{"SendMessage", R"("MessageBody":true)"},
        ShapeCase{"SendMessage", R"("MessageBody":{"text":"m"})"},
        ShapeCase{"SendMessage", R"("MessageBody":"m","MessageGroupId":1)"},
        ShapeCase{"AddPermission",
                  R"("Label":7,"AWSAccountIds":["000000000000"],"Actions":["SendMessage"])"},
        // integers: numbers or decimal strings, nothing else
        ShapeCase{"SendMessage", R"("MessageBody":"m","DelaySeconds":{})"},
        ShapeCase{"SendMessage", R"("MessageBody":"m","DelaySeconds":true)"},
        ShapeCase{"SendMessage", R"("MessageBody":"m","DelaySeconds":[0])"},
        // message attributes: a map of MessageAttributeValue objects
        ShapeCase{"SendMessage", R"("MessageBody":"m","MessageAttributes":"colour")"},
        ShapeCase{"SendMessage", R"("MessageBody":"m","MessageAttributes":{"colour":"red"})"},
        ShapeCase{
            "SendMessage",
            R"("MessageBody":"m","MessageAttributes":{"colour":{"DataType":1,"StringValue":"red"}})"},
        ShapeCase{
            "SendMessage",
            R"("MessageBody":"m","MessageAttributes":{"colour":{"DataType":"String","StringValue":{}}})"},
        ShapeCase{
            "SendMessage",
            R"("MessageBody":"m","MessageAttributes":{"blob":{"DataType":"Binary","BinaryValue":1}}})"},
        ShapeCase{
            "SendMessage",
            R"("MessageBody":"m","MessageAttributes":{"l":{"DataType":"String","StringValue":"a","StringListValues":"a"}})"},
        ShapeCase{"SendMessage",
                  R"("MessageBody":"m","MessageSystemAttributes":{"AWSTraceHeader":"Root=1"}})"},
        // batch entries: a list of objects
        ShapeCase{"SendMessageBatch", R"("Entries":["m"])"},
        ShapeCase{"SendMessageBatch", R"("Entries":{"Id":"a","MessageBody":"m"})"},
        ShapeCase{"SendMessageBatch", R"("Entries":[{"Id":1,"MessageBody":"m"}])"},
        ShapeCase{"SendMessageBatch",
                  R"("Entries":[{"Id":"a","MessageBody":"m","MessageAttributes":{"c":"red"}}])"},
        ShapeCase{"DeleteMessageBatch", R"("Entries":[["a","r"]])"},
        ShapeCase{"DeleteMessageBatch", R"("Entries":[{"Id":1,"ReceiptHandle":"r"}])"},
        ShapeCase{"DeleteMessageBatch", R"("Entries":[{"Id":"a","ReceiptHandle":true}])"},
        ShapeCase{"DeleteMessageBatch", R"("Entries":[{"Id":{},"ReceiptHandle":"r"}])"},
        ShapeCase{"ChangeMessageVisibilityBatch",
                  R"("Entries":[{"Id":"a","ReceiptHandle":"r","VisibilityTimeout":[1]}])"}));

TEST_F(JsonBodyTest, numbersForIntegersAndStringsForEverythingStayValid)
{
    ASSERT_EQ(json("SendMessage", withUrl(R"("MessageBody":"m","DelaySeconds":0)")).status, 200);
    ASSERT_EQ(json("SendMessage", withUrl(R"("MessageBody":"m","DelaySeconds":"0")")).status, 200);
    const HttpResponse received
        = json("ReceiveMessage", withUrl(R"("MaxNumberOfMessages":10,"WaitTimeSeconds":0)"));
    ASSERT_EQ(received.status, 200);
    EXPECT_EQ(object(received).value(QStringLiteral("Messages")).toArray().size(), 2);
    EXPECT_EQ(json("CreateQueue",
                   R"({"QueueName":"created","Attributes":{"DelaySeconds":"1"},)"
                   R"("tags":{"team":"a"}})")
                  .status,
              200);
}

TEST_F(JsonBodyTest, nullIsAnAbsentMember)
{
    EXPECT_EQ(json("SendMessage",
                   withUrl(R"("MessageBody":"m","DelaySeconds":null,)"
                           R"("MessageAttributes":null,"MessageGroupId":null)"))
                  .status,
              200);
    EXPECT_EQ(messagesInQ(), 1);
}

TEST_F(JsonBodyTest, aRepeatedMemberKeepsItsLastValueAndListsKeepEveryItemInOrder)
{
    ASSERT_EQ(json("SendMessage", withUrl(R"("MessageBody":"first","MessageBody":"last")")).status,
              200);
    const HttpResponse received = json("ReceiveMessage", withUrl(R"("MaxNumberOfMessages":1)"));
    const QJsonArray messages = object(received).value(QStringLiteral("Messages")).toArray();
    ASSERT_EQ(messages.size(), 1);
    EXPECT_EQ(messages[0].toObject().value(QStringLiteral("Body")).toString(),
              QStringLiteral("last"));

    // Lists: twelve entries are read as twelve (too many for a batch), ten as ten, in order.
    QByteArray entries;
    for (int i = 0; i < 12; ++i)
        entries += (i ? "," : "") + QByteArray(R"({"Id":"e)") + QByteArray::number(i)
            + R"(","MessageBody":"m"})";
    const HttpResponse batch = json("SendMessageBatch", withUrl("\"Entries\":[" + entries + "]"));
    EXPECT_EQ(batch.status, 400) << batch.body.toStdString();
    EXPECT_EQ(object(batch).value(QStringLiteral("__type")).toString(),
              QStringLiteral("com.amazonaws.sqs#TooManyEntriesInBatchRequest"));
    entries.clear();
    for (int i = 0; i < 10; ++i)
        entries += (i ? "," : "") + QByteArray(R"({"Id":"e)") + QByteArray::number(i)
            + R"(","MessageBody":"m)" + QByteArray::number(i) + R"("})";
    const HttpResponse ten = json("SendMessageBatch", withUrl("\"Entries\":[" + entries + "]"));
    ASSERT_EQ(ten.status, 200) << ten.body.toStdString();
    const QJsonArray successful = object(ten).value(QStringLiteral("Successful")).toArray();
    ASSERT_EQ(successful.size(), 10);
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(successful[i].toObject().value(QStringLiteral("Id")).toString(),
                  QStringLiteral("e%1").arg(i));
}

TEST_F(JsonBodyTest, membersTheApiDoesNotHaveAreIgnoredWhateverTheirType)
{
    EXPECT_EQ(json("SendMessage", withUrl(R"("MessageBody":"m","Extra":{"x":[1,true]})")).status,
              200);
}

TEST_F(JsonBodyTest, theQueryProtocolIsNotConcerned)
{
    EXPECT_EQ(query("Action=CreateQueue&QueueName=created&Attribute.1.Name=VisibilityTimeout"
                    "&Attribute.1.Value=45")
                  .status,
              200);
    EXPECT_EQ(broker.getQueueAttributes("created", {"VisibilityTimeout"})->at("VisibilityTimeout"),
              "45");
}

// ---- depth --------------------------------------------------------------------------------

TEST_F(JsonBodyTest, aBodyNestedDeeperThan32LevelsIsSerializationException)
{
    // The deepest request the API has (Entries → entry → MessageAttributes → value →
    // StringListValues) nests six levels; a member that is not the API's may nest up to 32.
    EXPECT_EQ(json("ListQueues", "{\"x\":" + nestedArrays(31) + "}").status, 200);
    for (const QByteArray& body : {"{\"x\":" + nestedArrays(32) + "}",
                                   "{\"x\":" + nestedObjects(32) + "}", nestedArrays(33)}) {
        SCOPED_TRACE(body.left(40).toStdString());
        expectSerializationException(json("ListQueues", body));
    }
    EXPECT_EQ(message(json("ListQueues", "{\"x\":" + nestedArrays(32) + "}")),
              QStringLiteral("The request body is not a JSON object: it nests more than 32 levels "
                             "deep."));
}

TEST_F(JsonBodyTest, aBodyOfOneAndAHalfMegabytesOfNestingIsSerializationException)
{
    for (const QByteArray& nesting : {nestedArrays(750'000), nestedObjects(250'000)}) {
        expectSerializationException(
            json("CreateQueue", R"({"QueueName":"created","Attributes":)" + nesting + "}"));
        expectSerializationException(json("CreateQueue", nesting));
    }
    EXPECT_FALSE(broker.getQueue("created").ok());
}

} // namespace
} // namespace inflight::protocol::testing
