// XmlWriter: the Query answers' XML, written as QXmlStreamWriter wrote it (it was the printer
// before; the expected strings below are its output for the same calls).
#include "protocol/xml_writer.h"

#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <iterator>
#include <random>
#include <string>

using inflight::protocol::XmlWriter;

namespace {

std::string written(void (*write)(XmlWriter&))
{
    QByteArray out;
    {
        XmlWriter writer(out);
        write(writer);
    } // what was written is in `out` once the writer is gone
    return out.toStdString();
}

} // namespace

TEST(XmlWriter, writesTheDeclarationElementsAndAttributesAsQXmlStreamWriterDid)
{
    const std::string xml = written([](XmlWriter& w) {
        w.startDocument();
        w.startElement("R");
        w.attribute("xmlns", "ns");
        w.textElement("E", "");
        w.emptyElement("F");
        w.startElement("G");
        w.textElement("H", "x");
        w.endElement();
        w.endDocument();
    });
    EXPECT_EQ(xml,
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?><R xmlns=\"ns\"><E></E><F/>"
              "<G><H>x</H></G></R>\n");
}

TEST(XmlWriter, escapesMarkupAndKeepsLineEndsThroughAParser)
{
    const std::string xml = written([](XmlWriter& w) {
        w.startElement("G");
        w.text("a<b>c&d\"e'f\tg\nh\r\ni");
        w.endDocument();
    });
    EXPECT_EQ(xml, "<G>a&lt;b&gt;c&amp;d&quot;e'f\tg\nh&#xD;\ni</G>\n");
    QXmlStreamReader reader(QByteArray::fromStdString(xml));
    reader.readNextStartElement();
    EXPECT_EQ(reader.readElementText().toStdString(), "a<b>c&d\"e'f\tg\nh\r\ni");
}

TEST(XmlWriter, keepsEveryCharacterXmlCanCarryAndReplacesTheRest)
{
    // A byte-order mark, the euro sign, a 4-byte character and DEL go out as they are.
    const std::string kept = "\xEF\xBB\xBF\xE2\x82\xAC\xF0\x9F\x98\x80\x7F";
    EXPECT_EQ(written([](XmlWriter& w) {
                  w.textElement("T", "\xEF\xBB\xBF\xE2\x82\xAC\xF0\x9F\x98\x80\x7F");
              }),
              "<T>" + kept + "</T>");
    // A control, NUL, U+FFFF, a sequence cut short and a stray continuation byte: U+FFFD each
    // (the cut sequence's two bytes one each, as QString::fromUtf8 reads them).
    const std::string input("a\x01"
                            "b\x00"
                            "c\xEF\xBF\xBF"
                            "d\xE2\x82"
                            "x\x80",
                            13);
    QByteArray out;
    {
        XmlWriter writer(out);
        writer.textElement("T", input);
    }
    const std::string r = "\xEF\xBF\xBD";
    EXPECT_EQ(out.toStdString(), "<T>a" + r + "b" + r + "c" + r + "d" + r + r + "x" + r + "</T>");
}

namespace {

// The escapes of text the engine holds, written from the rules in xml_writer.h: `<`, `>`, `&`,
// `"` and CR always, TAB and LF in attributes.
std::string referenceEscaped(const std::string& text, bool attribute)
{
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        case '"': out += "&quot;"; break;
        case '\r': out += "&#xD;"; break;
        case '\t': out += attribute ? "&#9;" : "\t"; break;
        case '\n': out += attribute ? "&#10;" : "\n"; break;
        default: out += c;
        }
    }
    return out;
}

} // namespace

TEST(XmlWriter, randomTextIsEscapedByTheRulesWhetherAsciiOrNot)
{
    // Plain ASCII takes the writer's one-copy path, markup its escapes, and text past ASCII its
    // check first: all three must write the same escapes.
    const std::string pieces[] = {"a",
                                  "Z",
                                  "0",
                                  " ",
                                  "'",
                                  "<",
                                  ">",
                                  "&",
                                  "\"",
                                  "\t",
                                  "\n",
                                  "\r",
                                  "\x7F",
                                  "\xC3\xA9",
                                  "\xE2\x82\xAC",
                                  "\xF0\x9F\x98\x80"};
    std::mt19937 random(1205);
    for (int round = 0; round < 3000; ++round) {
        std::string text;
        const bool ascii = round % 2 == 0;
        for (int i = int(random() % 40); i > 0; --i)
            text += pieces[random() % (ascii ? 13 : std::size(pieces))];
        QByteArray out;
        XmlWriter writer(out);
        writer.startElement("R");
        writer.attribute("a", text);
        writer.textElement("T", text);
        writer.endDocument();
        ASSERT_EQ(out.toStdString(),
                  "<R a=\"" + referenceEscaped(text, true) + "\"><T>"
                      + referenceEscaped(text, false) + "</T></R>\n")
            << text;
    }
}

// The writer writes into room it makes ahead (xml_writer.h): an answer far larger than its first
// room, with escaped text (appended to the buffer directly) between plain pieces, comes out whole
// and exactly as long as written, into a buffer that already held bytes.
TEST(XmlWriter, aLongDocumentGrowsItsRoomAndEndsExactlyWhereItsTextEnds)
{
    QByteArray out("kept:");
    std::string expected = "kept:<L>";
    {
        XmlWriter writer(out);
        writer.startElement("L");
        for (int i = 0; i < 2000; ++i) {
            const std::string text = i % 3 == 0 ? "a<b&" + std::to_string(i) : std::to_string(i);
            writer.textElement("I", text);
            expected += "<I>" + referenceEscaped(text, false) + "</I>";
        }
        writer.endDocument();
        expected += "</L>\n";
        EXPECT_EQ(out.toStdString(), expected); // complete once endDocument returns
    }
    EXPECT_EQ(out.toStdString(), expected);
    EXPECT_EQ(out.size(), qsizetype(expected.size()));
}
