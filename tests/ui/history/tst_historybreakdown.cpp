// History's "Where the time goes" tab on a real run: the demo's chat scenario (two load points) runs on the
// in-process simulated endpoint publishing SGLang's timing (timestamps, so the network parts cross the two
// clocks and carry a bound), is recorded by recordRun as the GUI and the CLI do, and the tab is checked
// against the database read independently: it is there for that run and gone for a run without server
// timing, each stacked bar's segments are the stored summary's means (parts most requests do not have left
// out), and the waterfall's bars are the chosen request's stored parts one after the other — the median-e2e
// request first, then the one picked in the table, then another point's after a click on its bar.
// THROUGHLINE_BREAKDOWN_SHOT_DIR=dir saves stacked.png and waterfall.png there.
#include "ui/plots/qcp.h" // first: qcustomplot.h before any other Qt header (STYLE.md)

#include "ui/guitestmain.h"

#include "historyfixture.h"

#include "common/demoscenario.h"
#include "core/metrics/timingsummary.h"
#include "core/run/runrecording.h"
#include "core/sim/simlauncher.h"
#include "core/storage/historyreader.h"
#include "ui/history/breakdownview.h"
#include "ui/history/historydetailwidget.h"
#include "ui/history/historypage.h"
#include "ui/plots/breakdownparts.h"
#include "ui/plots/breakdownplot.h"

#include <QImage>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>

using namespace Throughline;

namespace {

// The part a stacked series stands for, by its legend name.
int partOfName(const QString &name)
{
    for (int p = 0; p < kBreakdownParts; ++p)
        if (name == BreakdownParts::name(BreakdownPart(p)) ||
            name.startsWith(BreakdownParts::name(BreakdownPart(p)) + u" ("_qs))
            return p;
    return -1;
}

// The waterfall's bars: row (part index) → [left, right] in ms.
std::map<int, std::pair<double, double>> waterfallBars(QCustomPlot *plot)
{
    std::map<int, std::pair<double, double>> out;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *rect = qobject_cast<QCPItemRect *>(plot->item(i))) {
            const QPointF tl = rect->topLeft->coords(), br = rect->bottomRight->coords();
            out[int(std::lround((tl.y() + br.y()) / 2))] = {tl.x(), br.x()};
        }
    return out;
}

// "" when the waterfall draws `b`'s known parts in BreakdownPart order, each starting where the known parts
// before it end, and nothing for its unknown parts.
std::string waterfallDifference(QCustomPlot *plot, const RequestBreakdown &b)
{
    const auto bars = waterfallBars(plot);
    double at = 0;
    std::size_t known = 0;
    for (int p = 0; p < kBreakdownParts; ++p) {
        const PartValue &v = b.parts[std::size_t(p)];
        const bool has = v.status != PartStatus::Unknown && std::isfinite(v.ms);
        const auto it = bars.find(p);
        if (!has) {
            if (it != bars.end())
                return std::string("unknown part drawn: ") + breakdownPartKey(BreakdownPart(p));
            continue;
        }
        ++known;
        if (it == bars.end())
            return std::string("part missing: ") + breakdownPartKey(BreakdownPart(p));
        if (std::abs(it->second.first - at) > 1e-9 || std::abs(it->second.second - (at + v.ms)) > 1e-9)
            return std::string("part ") + breakdownPartKey(BreakdownPart(p)) + " drawn at [" +
                   std::to_string(it->second.first) + ", " + std::to_string(it->second.second) +
                   "], stored starts at " + std::to_string(at) + " and lasts " + std::to_string(v.ms);
        at += v.ms;
    }
    return bars.size() == known ? std::string() : "extra bars";
}

} // namespace

class TstHistoryBreakdown : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::string m_timed, m_plain;

    // The stored breakdown of `seq` in point `pointId`, read here.
    RequestBreakdown storedBreakdown(std::int64_t pointId, std::uint64_t seq)
    {
        HistoryReader reader;
        if (!reader.open(m_db.toStdString()))
            return {};
        auto all = reader.requestBreakdowns(pointId);
        if (all)
            for (const RequestBreakdown &b : *all)
                if (b.seq == seq)
                    return b;
        return {};
    }

    RunDetail detailOf(const std::string &uuid)
    {
        HistoryReader reader;
        if (!reader.open(m_db.toStdString()))
            return {};
        auto d = reader.runDetail(uuid);
        return d ? std::move(d).value() : RunDetail{};
    }

    // Opens the history page on the timed run with the tab current; waits for the first waterfall.
    std::unique_ptr<HistoryPage> openTimedRun()
    {
        auto page = std::make_unique<HistoryPage>(m_db);
        page->resize(1600, 1200);
        page->show();
        if (!QTest::qWaitForWindowExposed(page.get()) || !page->showRun(QString::fromStdString(m_timed)))
            return {};
        BreakdownView *view = page->detailWidget()->breakdownView();
        if (!QTest::qWaitFor([&] { return page->detailWidget()->plotTabs()->indexOf(view) >= 0; }, 10000))
            return {};
        page->detailWidget()->plotTabs()->setCurrentWidget(view);
        if (!QTest::qWaitFor([&] { return view->shownRequest() >= 0; }, 10000))
            return {};
        return page;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(u"history.sqlite"_qs);
        auto campaign = TestSupport::demoCampaign();
        QVERIFY2(campaign.ok(), TestSupport::errorText(campaign));
        auto scenario = TestSupport::firstDemoScenario();
        QVERIFY2(scenario.ok(), TestSupport::errorText(scenario));
        scenario->plan.concurrencies = {4, 16};
        scenario->plan.requestCount = 80;
        scenario->endpoint.serverTiming.format = "sglang";
        RunOptions opt;
        opt.workers = 2;
        opt.simLauncher = SimLauncher(&launchSimulator);
        opt.scrapeTelemetry = false;
        RunController rc({*scenario}, opt);
        auto out = rc.run();
        QVERIFY2(out.ok(), TestSupport::errorText(out));
        const RunResults res = runResultsFromOutcome(*out, campaign->name, std::string(64, '0'), {});
        RunRecordingInfo info;
        info.campaignJson = "{}";
        const Status st = recordRun(m_db.toStdString(), *out, res, info);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
        m_timed = out->runId;
        StorageWriter writer;
        QVERIFY(writer.open(m_db.toStdString()).ok());
        m_plain = TestFixture::storeRun(writer, "plain", {"Chat"}, {"vllm"}, 50, 3).uuid;
        QVERIFY(writer.close().ok());
        // The run pipeline stored what the tab draws.
        const RunDetail d = detailOf(m_timed);
        QCOMPARE(d.points.size(), 2u);
        HistoryReader reader;
        QVERIFY(reader.open(m_db.toStdString()).ok());
        for (const PointRow &p : d.points) {
            QVERIFY2(p.aggregates.contains("server_timing"), p.aggregates.dump().substr(0, 300).c_str());
            QVERIFY(reader.requestBreakdowns(p.id)->size() >= 80u);
        }
    }

    void tabOnlyForRunsWithServerTiming()
    {
        auto page = openTimedRun();
        QVERIFY(page);
        QTabWidget *tabs = page->detailWidget()->plotTabs();
        BreakdownView *view = page->detailWidget()->breakdownView();
        QCOMPARE(tabs->tabText(tabs->indexOf(view)), u"Where the time goes"_qs);
        QVERIFY(page->showRun(QString::fromStdString(m_plain)));
        QTRY_VERIFY(tabs->indexOf(view) < 0);
        QVERIFY(page->showRun(QString::fromStdString(m_timed)));
        QTRY_VERIFY(tabs->indexOf(view) >= 0);
    }

    void stackedBarsAreTheStoredMeans()
    {
        auto page = openTimedRun();
        QVERIFY(page);
        StackedBreakdownPlot *stacked = page->detailWidget()->breakdownView()->stackedPlot();
        const RunDetail d = detailOf(m_timed);
        QCOMPARE(stacked->bars().size(), d.points.size());
        std::vector<ServerTimingSummary> summaries;
        for (const PointRow &p : d.points)
            summaries.push_back(*ServerTimingSummary::fromJson(p.aggregates["server_timing"]));
        // Every part known in some point has a series; each series' value per point is that point's mean, or
        // 0 where the part is unknown there.
        std::set<int> drawn;
        QCustomPlot *plot = stacked->plot();
        for (int i = 0; i < plot->plottableCount(); ++i) {
            auto *bars = qobject_cast<QCPBars *>(plot->plottable(i));
            QVERIFY(bars);
            const int part = partOfName(bars->name());
            QVERIFY2(part >= 0, qPrintable(bars->name()));
            drawn.insert(part);
            QCOMPARE(bars->data()->size(), int(summaries.size()));
            for (std::size_t b = 0; b < summaries.size(); ++b) {
                const BreakdownPartSummary &s = summaries[b].parts[std::size_t(part)];
                const double want = s.status == PartStatus::Unknown ? 0.0 : s.mean;
                QCOMPARE(bars->data()->at(int(b))->value, want);
            }
            if (BreakdownPart(part) == BreakdownPart::Unattributed)
                QVERIFY2(bars->name().contains(u"derived"_qs), qPrintable(bars->name()));
        }
        for (int p = 0; p < kBreakdownParts; ++p) {
            bool known = false;
            for (const ServerTimingSummary &s : summaries)
                known = known || s.parts[std::size_t(p)].status != PartStatus::Unknown;
            QCOMPARE(drawn.count(p) == 1, known);
        }
        // SGLang's timestamps: the server's own parts are measured, the network is aligned with a bound.
        QVERIFY(drawn.count(int(BreakdownPart::Prefill)));
        QVERIFY(drawn.count(int(BreakdownPart::Decode)));
        const auto &up = summaries[0][BreakdownPart::NetworkUp];
        if (up.status != PartStatus::Unknown) {
            QVERIFY(up.aligned);
            QVERIFY(std::isfinite(summaries[0].clockBoundMs));
        }
    }

    void waterfallIsTheChosenRequest()
    {
        auto page = openTimedRun();
        QVERIFY(page);
        BreakdownView *view = page->detailWidget()->breakdownView();
        const RunDetail d = detailOf(m_timed);
        // The default: the median-e2e request among the measured ones of the first point.
        const std::int64_t first = d.points[0].id;
        QCOMPARE(view->requests().pointId, first);
        const auto &shown = view->requests().requests[std::size_t(view->shownRequest())];
        HistoryReader reader;
        QVERIFY(reader.open(m_db.toStdString()).ok());
        std::vector<double> e2e;
        auto rows = reader.requests(first, false);
        QVERIFY(rows);
        for (const RequestRow &r : *rows)
            if (r.errorClass == 0)
                e2e.push_back(double(r.e2eUs) / 1e3);
        std::sort(e2e.begin(), e2e.end());
        QVERIFY(!e2e.empty());
        QCOMPARE(shown.e2eMs, e2e[(e2e.size() - 1) / 2]);
        const RequestBreakdown median = storedBreakdown(first, shown.breakdown.seq);
        QCOMPARE(median.seq, shown.breakdown.seq);
        QCustomPlot *waterfall = view->waterfallPlot()->plot();
        std::string diff = waterfallDifference(waterfall, median);
        QVERIFY2(diff.empty(), diff.c_str());
        // The aligned parts carry their bound as an error bar of ± alignBoundMs.
        int boundLines = 0;
        for (int i = 0; i < waterfall->itemCount(); ++i)
            if (auto *line = qobject_cast<QCPItemLine *>(waterfall->item(i))) {
                ++boundLines;
                QCOMPARE(line->end->coords().x() - line->start->coords().x(), 2 * median.alignBoundMs);
            }
        int aligned = 0;
        for (const PartValue &v : median.parts)
            aligned += v.aligned && std::isfinite(v.ms) ? 1 : 0;
        QCOMPARE(boundLines, aligned);
        // Hovering an aligned part names its bound; hovering a stacked segment names its part and mean.
        const PartValue &up = median[BreakdownPart::NetworkUp];
        QVERIFY(up.aligned && std::isfinite(up.ms)); // SGLang publishes timestamps: the network is aligned
        {
            WaterfallPlot *w = view->waterfallPlot();
            const int upRow = int(BreakdownPart::NetworkUp);
            const QPoint row(int(waterfall->xAxis->coordToPixel(waterfallBars(waterfall)[upRow].second)),
                             int(waterfall->yAxis->coordToPixel(upRow)));
            const QString tip = w->toolTipAt(row);
            QVERIFY2(tip.startsWith(BreakdownParts::name(BreakdownPart::NetworkUp)), qPrintable(tip));
            QVERIFY2(tip.contains(u"±"_qs), qPrintable(tip));
        }
        {
            StackedBreakdownPlot *stacked = view->stackedPlot();
            // The widest segment: a pixel's rounding cannot miss it.
            const auto &segments = stacked->bars()[0].segments;
            const auto widest = std::max_element(segments.begin(), segments.end(),
                                                 [](const auto &a, const auto &b) { return a.ms < b.ms; });
            double before = 0;
            for (auto it = segments.begin(); it != widest; ++it)
                before += it->ms;
            const QPoint at(int(stacked->plot()->xAxis->coordToPixel(before + widest->ms / 2)),
                            int(stacked->plot()->yAxis->coordToPixel(0)));
            const QString tip = stacked->toolTipAt(at);
            QVERIFY2(tip.contains(BreakdownParts::name(widest->part)), qPrintable(tip));
        }

        // Another request picked in the table.
        QTableView *table = view->requestView();
        const int row = view->shownRequest() == 0 ? 1 : 0;
        table->selectRow(row);
        QCOMPARE(view->shownRequest(), row);
        const std::uint64_t pickedSeq = view->requests().requests[std::size_t(row)].breakdown.seq;
        QCOMPARE(table->model()->index(row, 0).data().toString(), QString::number(pickedSeq));
        diff = waterfallDifference(waterfall, storedBreakdown(first, pickedSeq));
        QVERIFY2(diff.empty(), diff.c_str());

        // A click on the second point's bar: its requests, its median request.
        StackedBreakdownPlot *stacked = view->stackedPlot();
        QCustomPlot *plot = stacked->plot();
        const double total = [&] {
            double t = 0;
            for (const BreakdownSegment &s : stacked->bars()[1].segments)
                t += s.ms;
            return t;
        }();
        const QPoint at(int(plot->xAxis->coordToPixel(total / 2)), int(plot->yAxis->coordToPixel(1)));
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        QCOMPARE(stacked->selected(), 1);
        QTRY_COMPARE(view->requests().pointId, d.points[1].id);
        QVERIFY(view->shownRequest() >= 0);
        const std::uint64_t secondSeq =
            view->requests().requests[std::size_t(view->shownRequest())].breakdown.seq;
        diff = waterfallDifference(waterfall, storedBreakdown(d.points[1].id, secondSeq));
        QVERIFY2(diff.empty(), diff.c_str());
        QVERIFY2(view->summaryText().contains(u"sglang"_qs), qPrintable(view->summaryText()));
    }

    void screenshots()
    {
        const QString dir = qEnvironmentVariable("THROUGHLINE_BREAKDOWN_SHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set THROUGHLINE_BREAKDOWN_SHOT_DIR to save the screenshots");
        auto page = openTimedRun();
        QVERIFY(page);
        BreakdownView *view = page->detailWidget()->breakdownView();
        for (auto [name, render] :
             {std::pair{u"stacked.png"_qs, std::function<bool(QImage &)>([&](QImage &img) {
                            return view->stackedPlot()->render(img, img.size());
                        })},
              std::pair{u"waterfall.png"_qs, std::function<bool(QImage &)>([&](QImage &img) {
                            return view->waterfallPlot()->render(img, img.size());
                        })}}) {
            QImage img(QSize(1000, 520), QImage::Format_ARGB32);
            img.fill(Qt::white);
            QVERIFY(render(img));
            QVERIFY(img.save(dir + u"/"_qs + name));
        }
        QVERIFY(page->grab().save(dir + u"/history-breakdown.png"_qs));
    }
};

THROUGHLINE_GUI_TEST_MAIN(TstHistoryBreakdown)
#include "tst_historybreakdown.moc"
