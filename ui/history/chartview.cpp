#include "ui/history/chartview.h"

#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

namespace Throughline {

ChartView::ChartView(QWidget *parent)
    : QWidget(parent)
    , m_emptyText(tr("Nothing to show yet."))
{
    setMinimumSize(240, 160);
    setAutoFillBackground(false);
}

void ChartView::setEmptyText(const QString &text)
{
    m_emptyText = text;
    update();
}

bool ChartView::hasData(const Chart &chart)
{
    for (const ChartSeries &s : chart.series)
        for (const ChartPoint &p : s.points)
            if (p.finite())
                return true;
    return false;
}

bool ChartView::showsEmptyText() const
{
    return !hasData(m_chart);
}

void ChartView::setChart(const Chart &chart)
{
    m_chart = chart;
    update();
}

void ChartView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    if (showsEmptyText()) {
        p.setPen(QColor(90, 90, 90));
        QRectF area = QRectF(rect()).adjusted(16, 12, -16, -12);
        if (!m_chart.title.isEmpty()) {
            QFont bold = font();
            bold.setBold(true);
            p.setFont(bold);
            p.drawText(area, Qt::AlignTop | Qt::AlignHCenter | Qt::TextWordWrap, m_chart.title);
            p.setFont(font());
        }
        p.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
        return;
    }
    ChartPainter::draw(p, QRectF(rect()).adjusted(4, 4, -4, -4), m_chart, 8);
}

bool ChartView::exportTo(const QString &path, QString *error) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QSize size = width() > 300 ? this->size() : QSize(800, 500);
    bool ok = false;
    if (suffix == u"png") {
        QImage image(size * 2, QImage::Format_ARGB32);
        image.setDevicePixelRatio(2);
        image.fill(Qt::white);
        {
            QPainter p(&image);
            ChartPainter::draw(p, QRectF(QPointF(0, 0), QSizeF(size)).adjusted(6, 6, -6, -6), m_chart, 8);
        }
        ok = image.save(path);
    } else if (suffix == u"svg") {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(m_chart.title);
        QPainter p;
        ok = p.begin(&svg);
        if (ok) {
            ChartPainter::draw(p, QRectF(QPointF(0, 0), QSizeF(size)).adjusted(6, 6, -6, -6), m_chart, 8);
            ok = p.end();
        }
    } else if (suffix == u"pdf") {
        QPdfWriter pdf(path);
        pdf.setResolution(300);
        pdf.setPageLayout(QPageLayout(QPageSize(QSizeF(size) * 0.75, QPageSize::Point), QPageLayout::Portrait,
                                      QMarginsF(0, 0, 0, 0)));
        QPainter p;
        ok = p.begin(&pdf);
        if (ok) {
            const QRect r = pdf.pageLayout().paintRectPixels(pdf.resolution());
            ChartPainter::draw(p, QRectF(r).adjusted(12, 12, -12, -12), m_chart, 8);
            ok = p.end();
        }
    } else {
        if (error)
            *error = tr("unsupported plot format \"%1\" (use .png, .svg or .pdf)").arg(suffix);
        return false;
    }
    if (!ok && error)
        *error = tr("cannot write %1").arg(path);
    return ok;
}

} // namespace Throughline
