#pragma once
// The page layout of a PDF report: content flows top to bottom (sections start on a new page,
// everything else continues where the last block ended), tables split across pages with the
// header repeated, charts from the chart model drawn by ChartPainter (vector), one type scale and
// one print palette, "Page N of M" footers and a table of contents with page numbers. Layout runs
// without a painter (measuring passes) and with one (painting); ReportWriter drives the passes so
// the contents and the footers know the final page numbers. Any thread that owns the painter.

#include "ui/plots/chart.h"
#include "ui/report/pdflinks.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QRectF>
#include <QString>
#include <QStringList>

class QPainter;
class QPdfWriter;

namespace Throughline {

class ReportDoc
{
public:
    struct Cell {
        QString text;
        QColor background; // invalid = none
        bool bold = false;
    };
    using Row = QList<Cell>;
    struct TocEntry {
        QString title;
        int level = 0; // 0 = section, 1 = subsection
        int page = 0;
        double y = 0; // where its heading starts on the page (device units from the body's top)
    };
    // The type scale (points) and the print palette, in one place.
    struct Type {
        static constexpr double Title = 18, H1 = 14, H2 = 10.5, Body = 9, Table = 8, Small = 7.5;
    };
    static QColor ink() { return QColor(25, 25, 25); }
    static QColor muted() { return QColor(90, 90, 90); }
    static QColor accent() { return QColor(16, 52, 110); }
    static QColor headerFill() { return QColor(226, 232, 241); }
    static QColor warnFill() { return QColor(252, 232, 200); }

    // `toc`: the entries of an earlier pass (page numbers for the contents); `totalPages`: its page count.
    ReportDoc(QPdfWriter &writer, QPainter *painter, QList<TocEntry> toc, int totalPages, QString footer);

    static QFont font(double pt, bool bold = false);

    // A top-level section (listed in the contents) on a fresh page unless the page is still empty; with
    // `freshPage` false it continues on the current page when there is room (short appendices).
    void section(const QString &title, bool freshPage = true);
    // A subsection heading kept on one page with at least `keepPt` of what follows; listed in the
    // contents unless `inContents` is false.
    void subsection(const QString &title, double keepPt = 160, bool inContents = true);
    void paragraph(const QString &text, double pt = Type::Body, const QColor &color = ink(),
                   bool bold = false);
    void space(double pt);
    // Moves to a fresh page unless `pt` more fit on this one (a heading kept with what follows).
    void keep(double pt) { ensure(pt * m_u); }
    void chart(const Chart &chart, double heightPt);
    // Charts side by side, `columns` per row, each `heightPt` high; a row moves to the next page whole.
    void chartGrid(const QList<Chart> &charts, int columns, double heightPt);
    // A table that fits the body width: columns get their natural width; when too wide the font shrinks
    // (down to 6 pt) and then the widest columns wrap. The header repeats on every page the table spans.
    void table(const QStringList &headers, const QList<Row> &rows, double pt = Type::Table);
    // The contents: one line per entry of the earlier pass, with its page number; each line links to its
    // heading (pdfLinks).
    void contents(const QString &title);
    void finish();

    int pages() const { return m_pageNo; }
    const QList<TocEntry> &tocEntries() const { return m_entries; }
    // The contents lines painted so far as links to their headings, in PDF points (PdfLinks::add).
    QList<PdfLink> pdfLinks() const;
    // Every section and listed subsection laid out so far as bookmarks (PdfLinks::add).
    QList<PdfOutlineEntry> pdfOutline() const;

private:
    void newPage();
    void finishPage();
    void ensure(double h);
    double textHeight(const QString &text, const QFont &f, double width) const;
    // Draws text wrapped into r's width, at r's top or centred in r's height.
    void drawWrapped(const QRectF &r, const QString &text, const QFont &f, bool centred) const;
    double pdfX(double device) const; // device units on the body → PDF points
    double pdfY(double device) const;
    bool atPageTop() const { return m_y <= m_body.top() + 0.5; }

    QPdfWriter &m_w;
    QPainter *m_p;
    QList<TocEntry> m_previous;
    QList<TocEntry> m_entries;
    int m_total;
    QString m_footer;
    double m_u = 1;
    QRectF m_page, m_body;
    double m_y = 0;
    int m_pageNo = 1;
    int m_sectionNo = 0;
    struct ContentsLink {
        int page;
        QRectF line; // device units
        TocEntry target;
    };
    QList<ContentsLink> m_links;
};

} // namespace Throughline
