#include "ui/report/pdflinks.h"

#include <QByteArray>
#include <QFile>
#include <QRegularExpression>

#include <map>
#include <vector>

namespace Throughline {

namespace {

QByteArray num(double v)
{
    return QByteArray::number(v, 'f', 2);
}

QByteArray ref(int object)
{
    return QByteArray::number(object) + " 0 R";
}

int refAfter(const QByteArray &body, const char *key)
{
    const QRegularExpression re(QString::fromLatin1(key) + u"\\s+(\\d+)\\s+0\\s+R"_qs);
    const auto m = re.match(QString::fromLatin1(body));
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

// A text string as UTF-16BE with its byte-order mark, in hex (no escaping needed).
QByteArray textString(const QString &s)
{
    QByteArray utf16 = "\xFE\xFF";
    for (const QChar c : s) {
        utf16 += char(c.unicode() >> 8);
        utf16 += char(c.unicode() & 0xFF);
    }
    return '<' + utf16.toHex() + '>';
}

// The file as QPdfWriter leaves it, and the update being appended to it.
class Update
{
public:
    explicit Update(QByteArray pdf)
        : m_pdf(std::move(pdf))
    {
    }

    // Reads the trailer, the cross-reference table and the page tree; "" on success, else what is missing.
    std::string parse()
    {
        const qsizetype sx = m_pdf.lastIndexOf("startxref"), tr = m_pdf.lastIndexOf("trailer");
        if (sx < 0 || tr < 0)
            return "no trailer";
        m_prev = m_pdf.mid(sx + 9, 24).trimmed().split('\n').front().trimmed().toLongLong();
        if (!readXref())
            return "no cross-reference table at offset " + std::to_string(m_prev);
        const QByteArray trailer = m_pdf.mid(tr, sx - tr);
        m_root = refAfter(trailer, "/Root");
        m_info = refAfter(trailer, "/Info");
        const QByteArray pages = body(refAfter(body(m_root), "/Pages"));
        const qsizetype kids = pages.indexOf("/Kids");
        if (m_root == 0 || kids < 0)
            return "no page tree";
        static const QRegularExpression r(u"(\\d+)\\s+0\\s+R"_qs);
        const QString list = QString::fromLatin1(pages.mid(kids, pages.indexOf(']', kids) - kids));
        for (auto it = r.globalMatch(list); it.hasNext();)
            m_pages.push_back(it.next().captured(1).toInt());
        m_next = int(m_offsets.size());
        return {};
    }
    int pageCount() const { return int(m_pages.size()); }
    int pageObject(int page) const { return m_pages[std::size_t(page - 1)]; }
    QByteArray destination(int page, double top) const
    {
        return '[' + ref(pageObject(page)) + " /XYZ null " + num(top) + " null]";
    }
    // The text of object `n` between "n 0 obj" and "endobj" as Qt wrote it.
    QByteArray body(int n) const
    {
        if (n <= 0 || std::size_t(n) >= m_offsets.size() || m_offsets[std::size_t(n)] < 0)
            return {};
        const qsizetype start = m_pdf.indexOf("obj", m_offsets[std::size_t(n)]);
        const qsizetype end = m_pdf.indexOf("endobj", start);
        return start < 0 || end < 0 ? QByteArray() : m_pdf.mid(start + 3, end - start - 3).trimmed();
    }
    int reserve() { return m_next++; }
    int root() const { return m_root; }
    // Writes object `n` (new, or a new version of an old one).
    void write(int n, const QByteArray &content)
    {
        m_written[n] = m_pdf.size() + m_out.size();
        m_out += QByteArray::number(n) + " 0 obj\n" + content + "\nendobj\n";
    }
    // The cross-reference section of the written objects and the trailer pointing back at Qt's.
    QByteArray finish()
    {
        const qint64 xref = m_pdf.size() + m_out.size();
        m_out += "xref\n";
        for (auto it = m_written.begin(); it != m_written.end();) { // subsections of consecutive objects
            auto end = it;
            int count = 0;
            while (end != m_written.end() && end->first == it->first + count)
                ++end, ++count;
            m_out += QByteArray::number(it->first) + ' ' + QByteArray::number(count) + '\n';
            for (; it != end; ++it)
                m_out += QByteArray::number(it->second).rightJustified(10, '0') + " 00000 n \n";
        }
        m_out += "trailer\n<<\n/Size " + QByteArray::number(m_next) + "\n/Root " + ref(m_root) + '\n';
        if (m_info > 0)
            m_out += "/Info " + ref(m_info) + '\n';
        m_out += "/Prev " + QByteArray::number(m_prev) + "\n>>\nstartxref\n" + QByteArray::number(xref) +
                 "\n%%EOF\n";
        return m_out;
    }

private:
    // The classic table QPdfWriter writes: one subsection from object 0.
    bool readXref()
    {
        static const QRegularExpression head(u"^xref\\s+(\\d+)\\s+(\\d+)\\s*\\n"_qs);
        const auto m = head.match(QString::fromLatin1(m_pdf.mid(qsizetype(m_prev), 64)));
        if (!m.hasMatch() || m.captured(1).toInt() != 0)
            return false;
        const int count = m.captured(2).toInt();
        qsizetype pos = qsizetype(m_prev) + m.capturedLength(0);
        m_offsets.assign(std::size_t(count), -1);
        for (int i = 0; i < count; ++i, pos += 20) {
            const QByteArray entry = m_pdf.mid(pos, 20);
            if (entry.size() < 18)
                return false;
            if (entry.at(17) == 'n')
                m_offsets[std::size_t(i)] = entry.left(10).toLongLong();
        }
        return true;
    }

    QByteArray m_pdf;
    QByteArray m_out = "\n";
    std::vector<qint64> m_offsets; // object → offset in Qt's bytes (−1: free)
    std::vector<int> m_pages;      // page − 1 → page object
    std::map<int, qint64> m_written;
    qint64 m_prev = 0;
    int m_root = 0, m_info = 0, m_next = 0;
};

std::string addLinks(Update &u, const QList<PdfLink> &links)
{
    std::map<int, QByteArray> annots; // source page object → refs of its new annotations
    for (const PdfLink &l : links) {
        if (l.page < 1 || l.page > u.pageCount() || l.targetPage < 1 || l.targetPage > u.pageCount())
            return "a link names page " + std::to_string(l.page) + " → " + std::to_string(l.targetPage) +
                   " of " + std::to_string(u.pageCount());
        const int n = u.reserve();
        u.write(n, "<<\n/Type /Annot\n/Subtype /Link\n/Rect [" + num(l.rect.left()) + ' ' +
                       num(l.rect.top()) + ' ' + num(l.rect.right()) + ' ' + num(l.rect.bottom()) +
                       "]\n/Border [0 0 0]\n/Dest " + u.destination(l.targetPage, l.targetTop) + "\n>>");
        annots[u.pageObject(l.page)] += ' ' + ref(n);
    }
    for (const auto &[page, refs] : annots) {
        const int array = refAfter(u.body(page), "/Annots");
        const QByteArray old = u.body(array);
        if (array == 0 || !old.startsWith('[') || !old.endsWith(']'))
            return "page object " + std::to_string(page) + " has no /Annots array";
        u.write(array, old.chopped(1) + refs + " ]");
    }
    return {};
}

// Sections at the top level, subsections under the section before them; everything open. The catalog
// gets a new version naming the outline and opening the viewer's bookmarks sidebar.
std::string addOutline(Update &u, const QList<PdfOutlineEntry> &entries)
{
    for (const PdfOutlineEntry &e : entries)
        if (e.targetPage < 1 || e.targetPage > u.pageCount())
            return "a bookmark names page " + std::to_string(e.targetPage) + " of " +
                   std::to_string(u.pageCount());
    const QByteArray catalog = u.body(u.root());
    if (!catalog.startsWith("<<") || !catalog.endsWith(">>") || catalog.contains("/Outlines"))
        return "the catalog is not as QPdfWriter writes it";
    struct Node {
        int object = 0, parent = -1, prev = -1, next = -1; // parent/prev/next: indices into nodes
        const PdfOutlineEntry *entry = nullptr;
        std::vector<int> children;
    };
    std::vector<Node> nodes(1);
    nodes[0].object = u.reserve(); // the outline root
    int section = 0;
    for (const PdfOutlineEntry &e : entries) {
        Node n;
        n.object = u.reserve();
        n.parent = e.level > 0 ? section : 0;
        n.entry = &e;
        Node &parent = nodes[std::size_t(n.parent)];
        if (!parent.children.empty()) {
            n.prev = parent.children.back();
            nodes[std::size_t(n.prev)].next = int(nodes.size());
        }
        parent.children.push_back(int(nodes.size()));
        nodes.push_back(n);
        if (e.level == 0)
            section = int(nodes.size()) - 1;
    }
    auto obj = [&nodes](int index) { return ref(nodes[std::size_t(index)].object); };
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Node &n = nodes[i];
        QByteArray d = "<<\n";
        if (i == 0) {
            d += "/Type /Outlines\n";
        } else {
            d += "/Title " + textString(n.entry->title) + "\n/Parent " + obj(n.parent) + "\n/Dest " +
                 u.destination(n.entry->targetPage, n.entry->targetTop) + '\n';
            if (n.prev >= 0)
                d += "/Prev " + obj(n.prev) + '\n';
            if (n.next >= 0)
                d += "/Next " + obj(n.next) + '\n';
        }
        if (!n.children.empty())
            d += "/First " + obj(n.children.front()) + "\n/Last " + obj(n.children.back()) + "\n/Count " +
                 QByteArray::number(i == 0 ? int(entries.size()) : int(n.children.size())) + '\n';
        u.write(n.object, d + ">>");
    }
    u.write(u.root(),
            catalog.chopped(2).trimmed() + "\n/Outlines " + obj(0) + "\n/PageMode /UseOutlines\n>>");
    return {};
}

} // namespace

Status PdfLinks::add(const QString &path, const QList<PdfLink> &links, const QList<PdfOutlineEntry> &outline)
{
    if (links.isEmpty() && outline.isEmpty())
        return Ok{};
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite))
        return makeError(ErrorCode::Io,
                         "cannot open " + path.toStdString() + ": " + f.errorString().toStdString());
    Update update(f.readAll());
    std::string problem = update.parse();
    if (problem.empty())
        problem = addLinks(update, links);
    if (problem.empty() && !outline.isEmpty())
        problem = addOutline(update, outline);
    if (!problem.empty())
        return makeError(ErrorCode::InvalidInput,
                         "cannot add links and bookmarks to " + path.toStdString() + ": " + problem);
    const QByteArray out = update.finish();
    if (!f.seek(f.size()) || f.write(out) != out.size() || !f.flush())
        return makeError(ErrorCode::Io,
                         "cannot write " + path.toStdString() + ": " + f.errorString().toStdString());
    return Ok{};
}

} // namespace Throughline
