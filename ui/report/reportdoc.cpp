#include "ui/report/reportdoc.h"

#include "ui/plots/chartpainter.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextLayout>

#include <algorithm>

namespace Throughline {

ReportDoc::ReportDoc(QPdfWriter &writer, QPainter *painter, QList<TocEntry> toc, int totalPages,
                     QString footer)
    : m_w(writer)
    , m_p(painter)
    , m_previous(std::move(toc))
    , m_total(totalPages)
    , m_footer(std::move(footer))
{
    m_u = m_w.resolution() / 72.0;
    const QRect pr = m_w.pageLayout().paintRectPixels(m_w.resolution());
    m_page = QRectF(0, 0, pr.width(), pr.height());
    m_body = m_page.adjusted(0, 0, 0, -Type::Small * m_u * 3);
    m_y = m_body.top();
}

QFont ReportDoc::font(double pt, bool bold)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(pt);
    f.setBold(bold);
    return f;
}

void ReportDoc::finishPage()
{
    if (!m_p)
        return;
    const QFont f = font(Type::Small);
    m_p->setFont(f);
    m_p->setPen(muted());
    const QFontMetricsF fm(f, &m_w);
    const QRectF r(m_page.left(), m_page.bottom() - fm.height() * 1.5, m_page.width(), fm.height() * 1.5);
    m_p->drawLine(QPointF(r.left(), r.top()), QPointF(r.right(), r.top()));
    m_p->drawText(r, Qt::AlignLeft | Qt::AlignBottom, m_footer);
    m_p->drawText(r, Qt::AlignRight | Qt::AlignBottom,
                  QCoreApplication::translate("Throughline::ReportDoc", "Page %1 of %2")
                      .arg(m_pageNo)
                      .arg(std::max(m_total, m_pageNo)));
}

void ReportDoc::newPage()
{
    finishPage();
    if (m_p)
        m_w.newPage();
    ++m_pageNo;
    m_y = m_body.top();
}

void ReportDoc::ensure(double h)
{
    if (m_y + h > m_body.bottom() && !atPageTop())
        newPage();
}

void ReportDoc::space(double pt)
{
    if (!atPageTop())
        m_y += pt * m_u;
}

namespace {

// Breaks between words, and inside a word only where that word alone is wider than the column (long ids,
// URLs): one over-wide word must not let the rest of the cell break mid-word ("stored po|int 3"). Returns the
// laid-out height.
double layOut(QTextLayout &layout, double width)
{
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    double y = 0;
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        line.setPosition(QPointF(0, y));
        y += line.height();
    }
    layout.endLayout();
    return y;
}

// QTextLayout breaks lines at U+2028, not at '\n' (which QPainter::drawText translates itself).
QString withLineSeparators(QString text)
{
    return text.replace(u'\n', QChar::LineSeparator);
}

} // namespace

double ReportDoc::textHeight(const QString &text, const QFont &f, double width) const
{
    QTextLayout layout(withLineSeparators(text), f, &m_w);
    return layOut(layout, width);
}

void ReportDoc::drawWrapped(const QRectF &r, const QString &text, const QFont &f, bool centred) const
{
    QTextLayout layout(withLineSeparators(text), f, &m_w);
    const double h = layOut(layout, r.width());
    const double top = centred ? r.top() + (r.height() - h) / 2 : r.top();
    layout.draw(m_p, QPointF(r.left(), top));
}

void ReportDoc::paragraph(const QString &t, double pt, const QColor &color, bool bold)
{
    const QFont f = font(pt, bold);
    const double h = textHeight(t, f, m_body.width());
    ensure(h);
    if (m_p) {
        m_p->setFont(f);
        m_p->setPen(color);
        drawWrapped(QRectF(m_body.left(), m_y, m_body.width(), h), t, f, false);
    }
    m_y += h;
}

void ReportDoc::section(const QString &title, bool freshPage)
{
    if (freshPage && !atPageTop())
        newPage();
    else
        ensure(160 * m_u); // a heading near the bottom moves on with what follows
    space(10);
    m_entries.append({title, 0, m_pageNo, m_y});
    paragraph(title, Type::H1, accent(), true);
    if (m_p) {
        m_p->setPen(QPen(accent(), 0.8 * m_u));
        m_p->drawLine(QPointF(m_body.left(), m_y + 1 * m_u), QPointF(m_body.right(), m_y + 1 * m_u));
    }
    m_y += 6 * m_u;
}

void ReportDoc::subsection(const QString &title, double keepPt, bool inContents)
{
    const double h = textHeight(title, font(Type::H2, true), m_body.width());
    ensure(h + 8 * m_u + keepPt * m_u);
    space(8);
    if (inContents)
        m_entries.append({title, 1, m_pageNo, m_y});
    paragraph(title, Type::H2, accent(), true);
    m_y += 3 * m_u;
}

void ReportDoc::chart(const Chart &c, double heightPt)
{
    chartGrid({c}, 1, heightPt);
}

void ReportDoc::chartGrid(const QList<Chart> &charts, int columns, double heightPt)
{
    const double h = heightPt * m_u, gap = 10 * m_u;
    const double w = (m_body.width() - gap * (columns - 1)) / columns;
    for (int i = 0; i < charts.size(); i += columns) {
        ensure(h);
        for (int c = 0; c < columns && i + c < charts.size(); ++c)
            if (m_p)
                ChartPainter::draw(*m_p, QRectF(m_body.left() + c * (w + gap), m_y, w, h), charts[i + c],
                                   Type::Small);
        m_y += h + 6 * m_u;
    }
}

void ReportDoc::table(const QStringList &headers, const QList<Row> &rows, double pt)
{
    const int n = int(headers.size());
    if (n == 0 || rows.isEmpty())
        return;
    QFont f = font(pt);
    QFont hf = font(pt, true);
    const double pad = 2.6 * m_u;
    QList<double> widths(n, 0);
    auto natural = [&](const QFont &cf, const QFont &hdf) {
        QFont bold = cf;
        bold.setBold(true);
        const QFontMetricsF fm(cf, &m_w), bfm(bold, &m_w), hfm(hdf, &m_w);
        for (int c = 0; c < n; ++c) {
            double w = hfm.horizontalAdvance(headers[c]);
            for (const Row &r : rows)
                if (c < r.size())
                    w = std::max(w, (r[c].bold ? bfm : fm).horizontalAdvance(r[c].text));
            widths[c] = w + 2 * pad + 1;
        }
    };
    natural(f, hf);
    auto total = [&] {
        double t = 0;
        for (double w : widths)
            t += w;
        return t;
    };
    while (total() > m_body.width() && f.pointSizeF() > 6.01) {
        f.setPointSizeF(f.pointSizeF() - 0.5);
        hf.setPointSizeF(f.pointSizeF());
        natural(f, hf);
    }
    if (total() > m_body.width()) { // shrink the widest columns to a fair share; they wrap
        const double fair = m_body.width() / n;
        double fixed = 0;
        int wide = 0;
        for (double w : widths)
            (w > fair) ? ++wide : (fixed += w, 0);
        const double share = (m_body.width() - fixed) / std::max(1, wide);
        for (double &w : widths)
            if (w > fair)
                w = std::max(share, 2 * pad + 8 * m_u);
    }
    auto rowHeight = [&](const Row &r, const QFont &rf) {
        double h = 0;
        for (int c = 0; c < n; ++c) {
            QFont cf = rf;
            cf.setBold(c < r.size() && r[c].bold);
            h = std::max(h, textHeight(c < r.size() ? r[c].text : QString(), cf, widths[c] - 2 * pad));
        }
        return h + 2 * pad * 0.6;
    };
    auto drawRow = [&](const Row &r, const QFont &rf, bool header, double h) {
        if (!m_p)
            return;
        double x = m_body.left();
        for (int c = 0; c < n; ++c) {
            const QRectF cell(x, m_y, widths[c], h);
            const QColor bg = header ? headerFill() : (c < r.size() ? r[c].background : QColor());
            if (bg.isValid())
                m_p->fillRect(cell, bg);
            m_p->setPen(QPen(QColor(195, 195, 195), 0.4 * m_u));
            m_p->drawLine(cell.bottomLeft(), cell.bottomRight());
            if (c < r.size()) {
                QFont cf = rf;
                cf.setBold(header || r[c].bold);
                m_p->setFont(cf);
                m_p->setPen(ink());
                drawWrapped(cell.adjusted(pad, pad * 0.6, -pad, -pad * 0.6), r[c].text, cf, true);
            }
            x += widths[c];
        }
    };
    Row headerRow;
    for (const QString &h : headers)
        headerRow.append(Cell{h, {}, true});
    const double hh = rowHeight(headerRow, hf);
    ensure(hh + rowHeight(rows.front(), f));
    drawRow(headerRow, hf, true, hh);
    m_y += hh;
    for (const Row &r : rows) {
        const double h = rowHeight(r, f);
        if (m_y + h > m_body.bottom()) {
            newPage();
            drawRow(headerRow, hf, true, hh);
            m_y += hh;
        }
        drawRow(r, f, false, h);
        m_y += h;
    }
    m_y += 6 * m_u;
}

void ReportDoc::contents(const QString &title)
{
    subsection(title, 60, false);
    const QFont f = font(Type::Body);
    const QFontMetricsF fm(f, &m_w);
    for (const TocEntry &e : m_previous) {
        const double h = fm.height() * 1.25;
        ensure(h);
        if (m_p) {
            QFont ef = f;
            ef.setBold(e.level == 0);
            m_p->setFont(ef);
            m_p->setPen(ink());
            const double indent = e.level * 14 * m_u;
            const QRectF line(m_body.left() + indent, m_y, m_body.width() - indent, h);
            m_p->drawText(line, Qt::AlignLeft | Qt::AlignVCenter, e.title);
            m_p->drawText(line, Qt::AlignRight | Qt::AlignVCenter, QString::number(e.page));
            m_links.append({m_pageNo, line, e});
        }
        m_y += h;
    }
    m_y += 4 * m_u;
}

double ReportDoc::pdfX(double device) const
{
    // The painter's origin is the paint rect's top-left; PDF user space has y up from the page's bottom.
    return m_w.pageLayout().paintRect(QPageLayout::Point).left() + device / m_u;
}

double ReportDoc::pdfY(double device) const
{
    const QPageLayout layout = m_w.pageLayout();
    return layout.fullRect(QPageLayout::Point).height() -
           (layout.paintRect(QPageLayout::Point).top() + device / m_u);
}

QList<PdfOutlineEntry> ReportDoc::pdfOutline() const
{
    QList<PdfOutlineEntry> out;
    for (const TocEntry &e : m_entries)
        out.append({e.title, e.level, e.page, pdfY(e.y) + 4});
    return out;
}

QList<PdfLink> ReportDoc::pdfLinks() const
{
    auto x = [this](double dev) { return pdfX(dev); };
    auto y = [this](double dev) { return pdfY(dev); };
    QList<PdfLink> out;
    for (const ContentsLink &l : m_links)
        out.append({l.page,
                    QRectF(QPointF(x(l.line.left()), y(l.line.bottom())),
                           QPointF(x(l.line.right()), y(l.line.top()))),
                    l.target.page, y(l.target.y) + 4});
    return out;
}

void ReportDoc::finish()
{
    finishPage();
}

} // namespace Throughline
