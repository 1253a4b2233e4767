// The chart model drawn both ways: one Chart description goes through ChartPainter (PDF/image
// exports) and through ChartQcp onto a QCustomPlot (the app's plots); both are painted into a
// recording paint device that keeps every ellipse and line with its pen and brush. Per series the
// filled, hollow (invalid points) and ringed (operating point) markers and the error-bar caps must
// agree with each other and with what the description says.

#include "ui/plots/chart.h"
#include "ui/plots/chartpainter.h"
#include "ui/plots/chartplot.h"
#include "ui/plots/plotstyle.h"

#include <QApplication>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Throughline;

namespace {

// Records what is painted; draws nothing.
class RecordingEngine : public QPaintEngine
{
public:
    struct Shape {
        QRectF rect;
        QColor pen;
        QBrush brush;
    };
    struct Line {
        QLineF line;
        QColor pen;
    };
    QList<Shape> ellipses;
    QList<Line> lines;
    QList<std::pair<QPointF, QString>> texts; // baseline position, text

    RecordingEngine()
        : QPaintEngine(QPaintEngine::AllFeatures)
    {
    }
    bool begin(QPaintDevice *) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState &state) override
    {
        if (state.state() & DirtyPen)
            m_pen = state.pen();
        if (state.state() & DirtyBrush)
            m_brush = state.brush();
    }
    void drawEllipse(const QRectF &r) override { ellipses.append({r, m_pen.color(), m_brush}); }
    void drawLines(const QLineF *l, int n) override
    {
        for (int i = 0; i < n; ++i)
            lines.append({l[i], m_pen.color()});
    }
    void drawLines(const QLine *l, int n) override
    {
        for (int i = 0; i < n; ++i)
            lines.append({QLineF(l[i]), m_pen.color()});
    }
    void drawPath(const QPainterPath &) override {}
    void drawPolygon(const QPointF *, int, PolygonDrawMode) override {}
    void drawPolygon(const QPoint *, int, PolygonDrawMode) override {}
    void drawRects(const QRectF *, int) override {}
    void drawRects(const QRect *, int) override {}
    void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override {}
    void drawTextItem(const QPointF &p, const QTextItem &t) override { texts.append({p, t.text()}); }
    Type type() const override { return QPaintEngine::User; }

private:
    QPen m_pen;
    QBrush m_brush;
};

class RecordingDevice : public QPaintDevice
{
public:
    explicit RecordingDevice(QSize size)
        : m_size(size)
    {
    }
    QPaintEngine *paintEngine() const override { return &m_engine; }
    RecordingEngine &engine() { return m_engine; }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
        case PdmWidthMM:
            return int(m_size.width() * 25.4 / 96);
        case PdmHeightMM:
            return int(m_size.height() * 25.4 / 96);
        case PdmNumColors:
            return 0x7fffffff;
        case PdmDepth:
            return 32;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(QPaintDevice::devicePixelRatioFScale());
        }
        return 0;
    }

private:
    QSize m_size;
    mutable RecordingEngine m_engine;
};

struct Counts {
    int filled = 0, hollow = 0, ringed = 0, caps = 0;
    double longestBar = 0; // longest vertical line of pen c: the open error bar runs to the plot's edge
    bool operator==(const Counts &o) const
    {
        return filled == o.filled && hollow == o.hollow && ringed == o.ringed && caps == o.caps;
    }
};

char *toString(const Counts &c)
{
    const QByteArray text = "filled " + QByteArray::number(c.filled) + " hollow " +
                            QByteArray::number(c.hollow) + " ringed " + QByteArray::number(c.ringed) +
                            " caps " + QByteArray::number(c.caps);
    return qstrdup(text.constData());
}

// Markers of colour c: filled = brush c; hollow = a ring of pen c on a solid other-colour brush;
// ringed = pen c, no brush. Caps/whiskers: short horizontal lines of pen c.
Counts countFor(const RecordingEngine &e, const QColor &c)
{
    Counts n;
    for (const auto &s : e.ellipses) {
        if (s.brush.style() == Qt::SolidPattern && s.brush.color().rgb() == c.rgb())
            ++n.filled;
        else if (s.pen.rgb() == c.rgb() && s.brush.style() == Qt::SolidPattern)
            ++n.hollow;
        else if (s.pen.rgb() == c.rgb() && s.brush.style() == Qt::NoBrush)
            ++n.ringed;
    }
    for (const auto &l : e.lines)
        if (l.pen.rgb() == c.rgb() && std::abs(l.line.dy()) < 0.01 && l.line.length() > 0.5 &&
            l.line.length() <= 8)
            ++n.caps;
    for (const auto &l : e.lines)
        if (l.pen.rgb() == c.rgb() && std::abs(l.line.dx()) < 0.01)
            n.longestBar = std::max(n.longestBar, std::abs(l.line.dy()));
    return n;
}

Chart sampleChart()
{
    Chart chart;
    chart.title = u"frontier"_qs;
    chart.xLabel = u"x"_qs;
    chart.yLabel = u"y"_qs;
    ChartSeries a; // line with invalid points, an operating point and error bars
    a.name = u"A"_qs;
    const double ys[] = {90, 70, 55, 30, 12};
    for (int i = 0; i < 5; ++i) {
        ChartPoint p = ChartPoint::measured(
            100.0 * (i + 1), ys[i], i % 2 == 0,
            i % 2 == 0 ? std::vector<std::string>{} : std::vector<std::string>{"window_short", "low_sample"});
        // The last one's upper side is open (the sample cannot bound it): drawn to the top without a cap.
        p.yInterval = i != 4 ? ChartInterval{ys[i] - 4, ys[i] + 5}
                             : ChartInterval{ys[i] - 3, std::numeric_limits<double>::infinity()};
        p.highlighted = i == 2;
        a.points << p;
    }
    ChartSeries b; // step function, all invalid
    b.name = u"B"_qs;
    b.step = true;
    for (int i = 0; i < 4; ++i) {
        ChartPoint p(80.0 + 120 * i, 80.0 - 15 * i);
        p.valid = false;
        p.reason = u"client_bound"_qs;
        b.points << p;
    }
    ChartSeries c; // markers only, one non-finite point that neither renderer may draw
    c.name = u"C"_qs;
    c.line = false;
    c.points << ChartPoint(150, 40) << ChartPoint(250, std::nan("")) << ChartPoint(350, 20);
    chart.series << a << b << c;
    chart.references << ChartReferenceLine{false, 25, u"SLO"_qs}
                     << ChartReferenceLine{true, 420, u"target"_qs};
    chart.regions << ChartRegion{0,
                                 120,
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::infinity(),
                                 u"region"_qs,
                                 ChartRegion::Tone::Neutral};
    return chart;
}

} // namespace

class TestChartModel : public QObject
{
    Q_OBJECT
private slots:
    void modelCounts()
    {
        const Chart chart = sampleChart();
        QCOMPARE(chart.series[0].markerCount(), 5);
        QCOMPARE(chart.series[0].hollowMarkerCount(), 2);
        QCOMPARE(chart.series[0].points[1].reason, u"window_short, low_sample"_qs);
        QVERIFY(chart.series[0].points[0].reason.isEmpty());
        QCOMPARE(chart.series[1].hollowMarkerCount(), 4);
        QCOMPARE(chart.series[2].markerCount(), 2); // the NaN point is not a marker
        QVERIFY(chart.anyHollow());
    }

    void sameMarkersBothWays_data()
    {
        QTest::addColumn<bool>("legend");
        QTest::addColumn<bool>("logX");
        QTest::newRow("legend") << true << false;
        QTest::newRow("no legend, log x") << false << true;
    }
    void sameMarkersBothWays()
    {
        QFETCH(bool, legend);
        QFETCH(bool, logX);
        Chart chart = sampleChart();
        chart.legend = legend;
        chart.logX = logX;
        const QSize size(800, 500);

        RecordingDevice painted(size);
        {
            QPainter p(&painted);
            ChartPainter::draw(p, QRectF(QPointF(0, 0), QSizeF(size)), chart, 8);
        }
        ChartPlot plot;
        plot.setPalette(QPalette(Qt::white)); // the print palette: same series colours as ChartPainter
        plot.setChart(chart);
        RecordingDevice qcp(size);
        QVERIFY(plot.render(qcp, size));

        for (int s = 0; s < chart.series.size(); ++s) {
            const ChartSeries &series = chart.series[s];
            const QColor c = ChartPainter::seriesColor(chart.colorIndex(s));
            QCOMPARE(PlotStyle::series(chart.colorIndex(s), plot.palette()), c);
            const Counts viaPainter = countFor(painted.engine(), c);
            const Counts viaPlot = countFor(qcp.engine(), c);
            QCOMPARE(viaPlot, viaPainter);
            int ringed = 0, boundedEnds = 0;
            for (const ChartPoint &p : series.points) {
                ringed += p.highlighted && p.finite() ? 1 : 0;
                if (p.yInterval && p.finite())
                    boundedEnds += (std::isfinite(p.yInterval->low) ? 1 : 0) +
                                   (std::isfinite(p.yInterval->high) ? 1 : 0);
            }
            const int legendMarker = legend && !series.line ? 1 : 0;
            QCOMPARE(viaPainter.filled, series.markerCount() - series.hollowMarkerCount() + legendMarker);
            QCOMPARE(viaPainter.hollow, series.hollowMarkerCount());
            QCOMPARE(viaPainter.ringed, ringed);
            QCOMPARE(viaPainter.caps, boundedEnds);
        }
        // THROUGHLINE_CHART_KEEP=DIR: both renderings as PNG, to look at.
        if (const QString keep = qEnvironmentVariable("THROUGHLINE_CHART_KEEP"); !keep.isEmpty()) {
            const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_').remove(u',');
            QImage a(size, QImage::Format_ARGB32);
            a.fill(Qt::white);
            {
                QPainter p(&a);
                ChartPainter::draw(p, QRectF(QPointF(0, 0), QSizeF(size)), chart, 8);
            }
            a.save(keep + u"/painter-"_qs + tag + u".png"_qs);
            QImage b(size, QImage::Format_ARGB32);
            b.fill(Qt::white);
            QVERIFY(plot.render(b, size));
            b.save(keep + u"/qcp-"_qs + tag + u".png"_qs);
        }
        // Sanity of the fixture: it does have hollow markers, a ring and error bars.
        QCOMPARE(countFor(painted.engine(), ChartPainter::seriesColor(0)).hollow, 2);
        QCOMPARE(countFor(painted.engine(), ChartPainter::seriesColor(0)).ringed, 1);
        QCOMPARE(countFor(painted.engine(), ChartPainter::seriesColor(0)).caps, 9);
        // The open bar from y = 9 runs to the plot's top edge (y ≥ 100 on this scale): most of the plot's
        // height in both renderers, where a bounded one is 9 units of ~110.
        QVERIFY2(
            countFor(painted.engine(), ChartPainter::seriesColor(0)).longestBar > 0.5 * size.height(),
            qPrintable(QString::number(countFor(painted.engine(), ChartPainter::seriesColor(0)).longestBar)));
        QVERIFY(countFor(qcp.engine(), ChartPainter::seriesColor(0)).longestBar > 0.5 * size.height());
    }

    // Region labels (a load point's window) are never clipped to a narrow band and never overlap: a label
    // that would run into the previous one drops a line.
    void regionLabelsStagger()
    {
        auto labelY = [](const QList<ChartRegion> &regions) {
            Chart chart;
            ChartSeries s;
            s.points << ChartPoint(0, 1) << ChartPoint(100, 2);
            chart.series << s;
            chart.legend = false;
            chart.regions = regions;
            RecordingDevice device(QSize(400, 300));
            {
                QPainter p(&device);
                ChartPainter::draw(p, QRectF(0, 0, 400, 300), chart, 8);
            }
            QMap<QString, double> y;
            for (const auto &[pos, text] : device.engine().texts)
                if (text.startsWith(u"C="_qs))
                    y[text] = pos.y();
            return y;
        };
        const auto far =
            labelY({ChartRegion{5, 30, -qInf(), qInf(), u"C=4"_qs, ChartRegion::Tone::Neutral},
                    ChartRegion{60, 90, -qInf(), qInf(), u"C=8"_qs, ChartRegion::Tone::Neutral}});
        QCOMPARE(far.size(), 2);
        QCOMPARE(far[u"C=4"_qs], far[u"C=8"_qs]); // room for both on one line
        const auto near =
            labelY({ChartRegion{50, 51, -qInf(), qInf(), u"C=16"_qs, ChartRegion::Tone::Neutral},
                    ChartRegion{52, 53, -qInf(), qInf(), u"C=32"_qs, ChartRegion::Tone::Neutral},
                    ChartRegion{80, 81, -qInf(), qInf(), u"C=64"_qs, ChartRegion::Tone::Neutral}});
        QCOMPARE(near.size(), 3); // drawn whole although each band is 1 % of the width
        QVERIFY(near[u"C=32"_qs] > near[u"C=16"_qs] + 4);
        QCOMPARE(near[u"C=64"_qs], near[u"C=16"_qs]); // back on the first line where there is room
    }

    void scaleCoversIntervalsAndReferences()
    {
        Chart chart;
        ChartSeries s;
        ChartPoint p(10, 5);
        p.yInterval = ChartInterval{2, 11};
        s.points << p;
        chart.series << s;
        chart.references << ChartReferenceLine{true, 37, {}};
        const ChartScale sc = ChartAxes::scale(chart);
        QVERIFY(sc.yMax >= 11);
        QVERIFY(sc.xMax >= 37);
        QCOMPARE(sc.xMin, 0.0);
        chart.logX = true;
        const ChartScale lg = ChartAxes::scale(chart);
        QVERIFY(lg.logX);
        QVERIFY(lg.xMin > 0 && lg.xMin <= 10);
        for (double t : lg.xTicks)
            QCOMPARE(std::exp2(std::round(std::log2(t))), t); // powers of two
    }

    void log2TicksThin()
    {
        const QList<double> t = ChartAxes::log2Ticks(1, 16384, 8);
        QVERIFY(t.size() <= 9);
        QCOMPARE(t.first(), 1.0);
        QVERIFY(t.last() >= 16384);
    }
};

QTEST_MAIN(TestChartModel)
#include "tst_chartmodel.moc"
