#include "protocol/xml_writer.h"

#include "engine/message_validation.h"
#include "protocol/utf8.h"

#include <QList>

#include <algorithm>
#include <array>
#include <cstring>

namespace inflight::protocol {

namespace {

// Text the engine did not check (echoed input in an error message, at most) as text XML can
// carry: bytes that are not UTF-8 become U+FFFD as QString::fromUtf8 reads them (textOf), and so
// does each character outside XML's set.
QByteArray carriedText(std::string_view utf8)
{
    QString text;
    for (const char32_t c : textOf(utf8).toUcs4()) {
        const bool carried = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
            || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
        // Not QString::fromUcs4, which reads a U+FEFF as a byte-order mark and drops it.
        text.append(QChar::fromUcs4(carried ? c : 0xFFFD));
    }
    return text.toUtf8();
}

// Text XML can carry, with `<`, `>`, `&`, `"` and CR escaped (and TAB and LF in attributes, as
// QXmlStreamWriter writes them there).
void appendEscaped(QByteArray& out, std::string_view utf8, bool attribute)
{
    std::size_t run = 0; // start of the bytes that go out as they are
    for (std::size_t at = 0; at < utf8.size(); ++at) {
        const char* escape = nullptr;
        switch (utf8[at]) {
        case '<': escape = "&lt;"; break;
        case '>': escape = "&gt;"; break;
        case '&': escape = "&amp;"; break;
        case '"': escape = "&quot;"; break;
        case '\r': escape = "&#xD;"; break;
        case '\t': escape = attribute ? "&#9;" : nullptr; break;
        case '\n': escape = attribute ? "&#10;" : nullptr; break;
        default: break;
        }
        if (!escape)
            continue;
        out.append(utf8.data() + run, qsizetype(at - run));
        out += escape;
        run = at + 1;
    }
    out.append(utf8.data() + run, qsizetype(utf8.size() - run));
}

// What a byte asks of the text it is in: nothing (most), an escape in text and attributes, an
// escape in attributes only, or the whole text's check (a control XML cannot carry, or a byte of a
// character past ASCII, which the check reads as UTF-8). Bits, so that a text's bytes' classes
// are or-ed together in one pass without a branch per byte.
enum ByteClass : unsigned char { Plain = 0, Escape = 1, EscapeInAttribute = 2, Check = 4 };

constexpr std::array<ByteClass, 256> kByteClasses = [] {
    std::array<ByteClass, 256> classes{};
    for (int c = 0; c < 256; ++c)
        classes[std::size_t(c)] = c < 0x20 || c >= 0x80 ? Check : Plain;
    for (const unsigned char c : {'<', '>', '&', '"', '\r'})
        classes[c] = Escape;
    classes['\t'] = EscapeInAttribute;
    classes['\n'] = EscapeInAttribute;
    return classes;
}();

} // namespace

char* XmlWriter::room(std::size_t size)
{
    const qsizetype end = m_size + qsizetype(size);
    if (end > m_out.size()) {
        // All the room the buffer has (resize within the capacity does not allocate), or twice
        // what is needed.
        m_out.resize(std::max({end, m_out.capacity(), 2 * m_size, qsizetype(256)}));
    }
    char* at = m_out.data() + m_size;
    m_size = end;
    return at;
}

void XmlWriter::finish()
{
    if (m_out.size() != m_size)
        m_out.truncate(m_size);
}

void XmlWriter::put(std::string_view bytes)
{
    std::memcpy(room(bytes.size()), bytes.data(), bytes.size());
}

void XmlWriter::putTag(std::string_view open, std::string_view name)
{
    char* out = room(open.size() + name.size() + 1);
    std::memcpy(out, open.data(), open.size());
    std::memcpy(out + open.size(), name.data(), name.size());
    out[open.size() + name.size()] = '>';
}

void XmlWriter::startDocument()
{
    put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
}

void XmlWriter::closeStartTag()
{
    if (m_inStartTag) {
        put(">");
        m_inStartTag = false;
    }
}

void XmlWriter::startElement(std::string_view name)
{
    closeStartTag();
    put("<");
    put(name);
    m_nameStarts.push_back(m_names.size());
    m_names.append(name);
    m_inStartTag = true;
}

void XmlWriter::attribute(std::string_view name, std::string_view value)
{
    put(" ");
    put(name);
    put("=\"");
    escaped(value, true);
    put("\"");
}

void XmlWriter::text(std::string_view utf8)
{
    closeStartTag();
    escaped(utf8, false);
}

void XmlWriter::endElement()
{
    if (m_nameStarts.empty())
        return;
    const std::size_t start = m_nameStarts.back();
    m_nameStarts.pop_back();
    if (m_inStartTag) {
        put("/>");
        m_inStartTag = false;
    } else {
        putTag("</", std::string_view(m_names).substr(start));
    }
    m_names.resize(start);
}

void XmlWriter::emptyElement(std::string_view name)
{
    startElement(name);
    endElement();
}

void XmlWriter::textElement(std::string_view name, std::string_view utf8)
{
    // As startElement, text and endElement write it, without keeping the name: `<a></a>` when
    // empty, as text once written makes it.
    closeStartTag();
    putTag("<", name);
    escaped(utf8, false);
    putTag("</", name);
}

void XmlWriter::markup(std::string_view xml)
{
    closeStartTag();
    put(xml);
}

void XmlWriter::endDocument()
{
    while (!m_nameStarts.empty())
        endElement();
    put("\n");
    finish();
}

void XmlWriter::escaped(std::string_view utf8, bool attribute)
{
    // Most text is ASCII with nothing to escape: one copy. Past ASCII, or with a control, the
    // whole text is checked first.
    unsigned seen = Plain;
    for (const char c : utf8)
        seen |= kByteClasses[static_cast<unsigned char>(c)];
    if (seen & Check)
        return checkedEscaped(utf8, attribute);
    const bool escapes = (seen & Escape) || (attribute && (seen & EscapeInAttribute));
    if (!escapes)
        return put(utf8);
    finish();
    appendEscaped(m_out, utf8, attribute);
    m_size = m_out.size();
}

void XmlWriter::checkedEscaped(std::string_view utf8, bool attribute)
{
    // XML's characters are the ones SQS allows in a message (§1.3): text the engine keeps passes
    // that check, and only escapes are left to write.
    finish();
    if (!engine::isValidMessageText(utf8)) {
        const QByteArray carried = carriedText(utf8);
        appendEscaped(m_out, std::string_view(carried.constData(), std::size_t(carried.size())),
                      attribute);
    } else {
        appendEscaped(m_out, utf8, attribute);
    }
    m_size = m_out.size();
}

} // namespace inflight::protocol
