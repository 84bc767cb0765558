// Forms are decoded to UTF-8 text (appendFormPairs), checked by simdjson; they were decoded to
// QString, checked by QStringDecoder (referenceTakes), which stays the reference here: the same
// names and values are refused, and those kept are the same text.
#include "protocol/form.h"

#include <QStringDecoder>

#include <gtest/gtest.h>

#include <cctype>
#include <optional>
#include <random>
#include <string>

namespace protocol = inflight::protocol;

namespace {

QByteArray percentEncoded(const std::string& bytes)
{
    return QByteArray::fromStdString(bytes).toPercentEncoding();
}

// Whether the reference decoder takes `bytes` as UTF-8. Stateless: a sequence cut short at the
// end is an error, not a state kept for more bytes.
bool referenceTakes(const std::string& bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8,
                           QStringDecoder::Flag::Stateless
                               | QStringDecoder::Flag::ConvertInitialBom);
    const QString text = decoder.decode(QByteArray::fromStdString(bytes));
    return !decoder.hasError();
}

std::string encodedCodePoint(char32_t c)
{
    std::string out;
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
    return out;
}

} // namespace

TEST(FormDecode, pairsAreDecodedInOrder)
{
    protocol::FormPairs pairs;
    ASSERT_TRUE(protocol::appendFormPairs(
        "Action=SendMessage&MessageBody=a+b%20c%2B%zz%4&&flag&Attribute.1.Name=%E2%82%AC", pairs));
    const protocol::FormPairs expected = {{"Action", "SendMessage"},
                                          {"MessageBody", "a b c+%zz%4"},
                                          {"flag", ""},
                                          {"Attribute.1.Name", "\xE2\x82\xAC"}};
    EXPECT_EQ(pairs, expected);
    ASSERT_TRUE(protocol::appendFormPairs("more=1", pairs));
    EXPECT_EQ(pairs.back(), (std::pair<std::string, std::string>("more", "1"))) << "appended";
}

TEST(FormDecode, everyCodePointIsTakenOrRefusedAsQStringDecoderDid)
{
    for (char32_t c = 1; c <= 0x10FFFF; c += (c < 0x30000 ? 1 : 61)) {
        const std::string text = encodedCodePoint(c);
        protocol::FormPairs pairs;
        const bool taken = protocol::appendFormPairs("v=" + percentEncoded(text), pairs).ok();
        ASSERT_EQ(taken, referenceTakes(text)) << "U+" << std::hex << std::uint32_t(c);
        if (taken) {
            ASSERT_EQ(pairs.at(0).second, text);
        }
    }
}

TEST(FormDecode, bytesThatAreNotUtf8AreRefusedAsQStringDecoderRefusedThem)
{
    const std::string cases[] = {
        "\xFF",
        "\xC0\xAF",
        "\xE0\x80\xAF",
        "\xED\xA0\x80", // surrogate
        "\xF4\x90\x80\x80",
        "\xE2\x82",
        "caf\xC3",
        "\x80",
        "\xEF\xBB\xBF",
        "\xEF\xBF\xBF",
        "\xF0\x9F\x98\x80",
        "a\xC3\xA9z",
    };
    for (const std::string& bytes : cases) {
        protocol::FormPairs pairs;
        EXPECT_EQ(protocol::appendFormPairs("v=" + percentEncoded(bytes), pairs).ok(),
                  referenceTakes(bytes))
            << QByteArray::fromStdString(bytes).toHex().toStdString();
        pairs.clear();
        EXPECT_EQ(protocol::appendFormPairs(percentEncoded(bytes) + "=v", pairs).ok(),
                  referenceTakes(bytes))
            << "as a name: " << QByteArray::fromStdString(bytes).toHex().toStdString();
    }
    std::mt19937 random(5122026);
    for (int round = 0; round < 20000; ++round) {
        std::string bytes;
        for (int i = int(random() % 8); i > 0; --i)
            bytes += char(random() % 4 == 0 ? random() % 128 : 0x80 + random() % 128);
        protocol::FormPairs pairs;
        ASSERT_EQ(protocol::appendFormPairs("v=" + percentEncoded(bytes), pairs).ok(),
                  referenceTakes(bytes))
            << QByteArray::fromStdString(bytes).toHex().toStdString();
    }
}

// A form of plain ASCII skips the UTF-8 check; bytes past ASCII, escaped or not, in any pair of
// the form, are still checked: the same random bytes as above, unescaped, after a plain pair, and
// escaped among plain ones.
TEST(FormDecode, bytesPastAsciiAreCheckedEscapedOrNotAnywhereInTheForm)
{
    std::mt19937 random(6122026);
    for (int round = 0; round < 20000; ++round) {
        std::string bytes;
        for (int i = 1 + int(random() % 8); i > 0; --i)
            bytes += char(random() % 4 == 0 ? 0x21 + random() % 90 : 0x80 + random() % 128);
        if (bytes.find_first_of("&=%+") != std::string::npos)
            continue; // a form's own punctuation, unescaped, would split or decode the bytes
        const bool valid = referenceTakes(bytes);
        protocol::FormPairs pairs;
        ASSERT_EQ(protocol::appendFormPairs(
                      QByteArray("Action=SendMessage&v=") + QByteArray::fromStdString(bytes), pairs)
                      .ok(),
                  valid)
            << QByteArray::fromStdString(bytes).toHex().toStdString();
        if (valid) {
            ASSERT_EQ(pairs.size(), 2u);
            EXPECT_EQ(pairs[1].second, bytes);
        }
        pairs.clear();
        ASSERT_EQ(protocol::appendFormPairs("Action=SendMessage&" + percentEncoded(bytes)
                                                + "=1&QueueUrl=http%3A%2F%2Fq",
                                            pairs)
                      .ok(),
                  valid);
    }
    protocol::FormPairs pairs;
    EXPECT_TRUE(protocol::appendFormPairs("a=b&QueueUrl=http%3A%2F%2F127.0.0.1%3A9324%2Fq", pairs));
    EXPECT_EQ(pairs.back().second, "http://127.0.0.1:9324/q");
}

namespace {

// The form's rules, one byte at a time: split at '&' (no empty pairs), then at the pair's first
// '=', '+' a space, %XX with two hex digits a byte, any other '%' itself; nullopt when a name or
// value is not UTF-8 by the reference decoder.
std::optional<protocol::FormPairs> referenceDecode(const std::string& form)
{
    const auto unescape = [](const std::string& text) {
        const auto hex = [](char c) {
            const auto at = std::string("0123456789ABCDEF")
                                .find(char(std::toupper(static_cast<unsigned char>(c))));
            return c != 0 && at != std::string::npos ? int(at) : -1;
        };
        std::string out;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '+') {
                out += ' ';
            } else if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0
                       && hex(text[i + 2]) >= 0) {
                out += char(hex(text[i + 1]) * 16 + hex(text[i + 2]));
                i += 2;
            } else {
                out += text[i];
            }
        }
        return out;
    };
    protocol::FormPairs pairs;
    std::size_t start = 0;
    while (start <= form.size()) {
        std::size_t end = form.find('&', start);
        if (end == std::string::npos)
            end = form.size();
        const std::string pair = form.substr(start, end - start);
        start = end + 1;
        if (pair.empty())
            continue;
        const std::size_t equals = pair.find('=');
        const std::string name = unescape(pair.substr(0, equals));
        const std::string value
            = equals == std::string::npos ? std::string() : unescape(pair.substr(equals + 1));
        if (!referenceTakes(name) || !referenceTakes(value))
            return std::nullopt;
        pairs.emplace_back(name, value);
    }
    return pairs;
}

} // namespace

// decodeFormInto copies plain runs sixteen bytes at a time and stores whole blocks past the text
// it decodes: random forms of every length up to 80 (blocks and their tails, separators and
// escapes at every place in a block) decode as the byte-by-byte rules do, and nothing is written
// past the room of the form's size.
TEST(FormDecode, decodeFormIntoMatchesTheRulesByteByByteAndStaysInItsRoom)
{
    const std::string alphabet = "&&==%%++0123456789abcdefABCDEFxyz.-_ \x80\xC3\xA9\xFF";
    std::mt19937 random(7122026);
    for (int round = 0; round < 40000; ++round) {
        std::string form;
        const int length = int(random() % 81);
        for (int i = 0; i < length; ++i)
            form += random() % 3 == 0 ? alphabet[random() % alphabet.size()]
                                      : char('a' + random() % 26);
        constexpr std::size_t kGuard = 32;
        std::string room(form.size() + kGuard, '\x5A');
        protocol::FormViews views;
        const protocol::FormResult<std::size_t> written
            = protocol::decodeFormInto(form, room.data(), views);
        const std::optional<protocol::FormPairs> expected = referenceDecode(form);
        ASSERT_EQ(written.ok(), expected.has_value()) << form;
        ASSERT_EQ(room.substr(form.size()), std::string(kGuard, '\x5A'))
            << "written past its room: " << form;
        if (!expected)
            continue;
        protocol::FormPairs pairs;
        std::size_t decoded = 0;
        for (const auto& [name, value] : views) {
            pairs.emplace_back(std::string(name), std::string(value));
            decoded += name.size() + value.size();
        }
        ASSERT_EQ(pairs, *expected) << form;
        EXPECT_EQ(*written, decoded) << form;
    }
}

TEST(FormDecode, decodeFormKeepsALeadingByteOrderMark)
{
    const auto parameters = protocol::decodeForm("MessageBody=%EF%BB%BFbom");
    ASSERT_TRUE(parameters);
    ASSERT_EQ(parameters->size(), 1);
    EXPECT_EQ(parameters->at(0).second.size(), 4);
    EXPECT_EQ(parameters->at(0).second.at(0), QChar(0xFEFF));
    EXPECT_FALSE(protocol::decodeForm("a=%FF"));
}

// The callers answer every form that is not UTF-8 alike; the error says which pair it was, by its
// place in the form (counting pairs, not "&&") and, when its value is the one, by its name.
TEST(FormDecode, aFormThatIsNotUtf8SaysWhichPairAndWhetherItsNameOrItsValue)
{
    using protocol::FormError;
    protocol::FormPairs pairs;
    const auto value
        = protocol::appendFormPairs("Action=SendMessage&&MessageBody=caf%C3&After=%FF", pairs);
    ASSERT_FALSE(value);
    EXPECT_EQ(value.error(), (FormError{2, FormError::Part::Value, "MessageBody"}));
    EXPECT_EQ(describe(value.error()),
              "the value of MessageBody (pair 2) is not UTF-8 once percent-decoded");

    const auto name = protocol::decodeForm("a=1&%FF=%FF");
    ASSERT_FALSE(name);
    EXPECT_EQ(name.error(), (FormError{2, FormError::Part::Name, {}})) << "the name first";
    EXPECT_EQ(describe(name.error()), "the name of pair 2 is not UTF-8 once percent-decoded");

    // Each form counts its own pairs, though decodeFormInto appends them to one list.
    std::string room(8, '\0');
    protocol::FormViews views;
    ASSERT_TRUE(protocol::decodeFormInto("a=1&b=2", room.data(), views));
    const auto unnamed = protocol::decodeFormInto("=%E2%82", room.data(), views);
    ASSERT_FALSE(unnamed);
    EXPECT_EQ(unnamed.error(), (FormError{1, FormError::Part::Value, {}}));
    EXPECT_EQ(describe(unnamed.error()), "the value of pair 1 is not UTF-8 once percent-decoded");

    // A long name is quoted as an error message quotes client text: cut at kMaxExcerptBytes.
    const std::string longName(3 * inflight::engine::kMaxExcerptBytes, 'n');
    const auto quoted = protocol::decodeForm(QByteArray::fromStdString(longName) + "=%FF");
    ASSERT_FALSE(quoted);
    EXPECT_EQ(quoted.error().name, inflight::engine::excerpt(longName));
    EXPECT_LT(quoted.error().name.size(), longName.size());
}

// The decoded text is checked as UTF-8 all at once; a character cut in two by '=' or '&' is still
// refused, in the part where it starts.
TEST(FormDecode, aCharacterSplitBetweenTwoPartsIsNotUtf8)
{
    using protocol::FormError;
    const auto byEquals = protocol::decodeForm("a%C3=%A9");
    ASSERT_FALSE(byEquals);
    EXPECT_EQ(byEquals.error(), (FormError{1, FormError::Part::Name, {}}));
    const auto byAmpersand = protocol::decodeForm("x=%E2%82&%AC=y");
    ASSERT_FALSE(byAmpersand);
    EXPECT_EQ(byAmpersand.error(), (FormError{1, FormError::Part::Value, "x"}));
    const auto whole = protocol::decodeForm("caf%C3%A9=%E2%82%AC&%F0%9F%99%82=ok");
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->size(), 2);
}
