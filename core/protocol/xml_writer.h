#pragma once

#include <QByteArray>

#include <string>
#include <string_view>
#include <vector>

namespace inflight::protocol {

// Writes XML as UTF-8 straight into a QByteArray, for the Query protocol's answers: the same bytes
// QXmlStreamWriter printed (no declaration newline, no indentation, `<a/>` for an element with
// nothing in it, `<a></a>` once text was written, `<`, `>`, `&` and `"` escaped in text and
// attributes) without a QString for every name and value on the way. Text the engine holds is
// UTF-8 already; a CR is written `&#xD;` so that "\r\n" survives a parser's line-end
// normalisation (§2.4), and what XML cannot carry (controls other than TAB, LF and CR, U+FFFE,
// U+FFFF, bytes that are not UTF-8: possible only in echoed input) becomes U+FFFD.
//
// Names are the caller's, written as they are (the API's element names). Elements must be closed
// in order; endDocument() closes what is open and ends the document with a newline.
//
// The writer writes into room it made in `out` past what it has written (a QByteArray append is an
// out-of-line call that checks its room, and an answer is many small pieces): `out` holds exactly
// what was written once endDocument() has returned or the writer is gone, and should not be read
// before.
class XmlWriter {
public:
    explicit XmlWriter(QByteArray& out) : m_out(out), m_size(out.size()) {}
    ~XmlWriter() { finish(); }
    XmlWriter(const XmlWriter&) = delete;
    XmlWriter& operator=(const XmlWriter&) = delete;

    void startDocument();
    void startElement(std::string_view name);
    // Only right after startElement.
    void attribute(std::string_view name, std::string_view value);
    void text(std::string_view utf8);
    void endElement();
    void emptyElement(std::string_view name);
    void textElement(std::string_view name, std::string_view utf8);
    // Markup the caller made whole (elements of text that needs no escaping), written as it is,
    // after the open start tag, if any, is closed.
    void markup(std::string_view xml);
    void endDocument();

private:
    void closeStartTag();
    void escaped(std::string_view utf8, bool attribute);
    void checkedEscaped(std::string_view utf8, bool attribute);
    // Appends bytes; the buffer grows by doubling.
    void put(std::string_view bytes);
    // Room for `size` more bytes at m_size; returns where they go.
    char* room(std::size_t size);
    // `out` cut to what was written (before anything appends to it directly, and at the end).
    void finish();
    // `open` (`<` or `</`), `name` and `>`, in one append.
    void putTag(std::string_view open, std::string_view name);

    QByteArray& m_out;
    qsizetype m_size; // what was written; m_out's size may be larger (room not yet written)
    // The open elements' names, one after the other, and where each one starts.
    std::string m_names;
    std::vector<std::size_t> m_nameStarts;
    bool m_inStartTag = false;
};

} // namespace inflight::protocol
