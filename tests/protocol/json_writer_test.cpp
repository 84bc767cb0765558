// appendJson prints an answer's members to the bytes nlohmann-json's dump() gives them (it was the
// printer before, and stays the reference here).
#include "protocol/json_writer.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

using inflight::protocol::appendJson;
using inflight::protocol::Output;

namespace {

std::string viaNlohmann(const Output& value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string viaWriter(const Output& value)
{
    QByteArray out("prefix:");
    appendJson(out, value);
    EXPECT_TRUE(out.startsWith("prefix:")) << "it appends";
    return out.mid(7).toStdString();
}

} // namespace

TEST(JsonWriter, printsAnswersAsNlohmannJsonDoes)
{
    const Output answers[] = {
        Output::object(),
        Output::array(),
        Output{{"MessageId", "8f0c1a9e-5b7d-4c1e-9a3f-2d6b7e8f9a0b"}, {"MD5OfMessageBody", "x"}},
        Output{{"Messages",
                {{{"Body", "a \"quoted\" \\ back\tslash\r\n\b\f\x01\x1f\x7f end"},
                  {"Attributes", {{"SentTimestamp", "1796398522111"}}},
                  {"MessageAttributes",
                   {{"k",
                     {{"DataType", "String"}, {"StringValue", "\xE2\x82\xAC \xF0\x9F\x98\x80"}}}}}},
                 Output::object()}}},
        Output{{"Successful", Output::array()},
               {"Failed", {{{"Id", "a"}, {"SenderFault", true}, {"Code", "X"}, {"Message", ""}}}}},
        Output{{"n", -42},
               {"u", std::uint64_t{18446744073709551615ULL}},
               {"z", nullptr},
               {"f", false},
               {"d", 1.5}},
        Output{{"\xEF\xBB\xBF"
                "key",
                "\xEF\xBB\xBF"
                "value"}},
    };
    for (const Output& answer : answers)
        EXPECT_EQ(viaWriter(answer), viaNlohmann(answer)) << viaNlohmann(answer);
}

TEST(JsonWriter, replacesBytesThatAreNotUtf8AsNlohmannJsonDoes)
{
    for (const std::string& bad : {std::string("a\xFF"
                                               "b"),
                                   std::string("cut \xE2\x82"),
                                   std::string("\xED\xA0\x80 surrogate"), std::string("\x80")}) {
        const Output answer{{"Message", bad}, {bad, 1}};
        EXPECT_EQ(viaWriter(answer), viaNlohmann(answer));
    }
}

TEST(JsonWriter, agreesWithNlohmannJsonOnRandomText)
{
    std::mt19937 random(11);
    for (int i = 0; i < 2000; ++i) {
        std::string text(random() % 40, '\0');
        for (char& c : text) // mostly ASCII with controls, some UTF-8 lead and continuation bytes
            c = static_cast<char>(random() % 4 == 0 ? 0x80 + random() % 0x80 : random() % 0x80);
        const Output answer{{"Body", text}, {"List", {text, text}}};
        ASSERT_EQ(viaWriter(answer), viaNlohmann(answer)) << i;
    }
}

TEST(JsonWriter, plainTextAndTextWithOneByteToEscapeAgreeWithNlohmannJson)
{
    // Plain printable ASCII goes out in one write; one byte to escape or past ASCII, anywhere
    // (in a whole word or in the tail), takes the byte-by-byte way. Both print as nlohmann-json.
    std::mt19937 random(12);
    const char specials[] = {'"', '\\', '\n', '\x01', '\x1f', '\x7f', '\xc3'};
    for (int i = 0; i < 4000; ++i) {
        std::string text(random() % 41, '\0');
        for (char& c : text)
            c = static_cast<char>(0x20 + random() % 0x5f); // ' ' … '~'
        if (i % 2 == 1 && !text.empty())
            text[random() % text.size()] = specials[random() % sizeof specials];
        const Output answer{{"Body", text}, {"List", {text, ""}}};
        ASSERT_EQ(viaWriter(answer), viaNlohmann(answer)) << i << ' ' << text;
    }
}

TEST(JsonWriter, anEmptyViewIsAnEmptyString)
{
    QByteArray out("x");
    inflight::protocol::appendJsonString(out, std::string_view());
    EXPECT_EQ(out, "x\"\"");
}
