// The join and the clock alignment against the simulator's ground truth, per format, through the run
// pipeline: the endpoint's server_timing makes throughline-sim publish its per-request timing as each real
// server does (--server-timing), on a server clock with an offset and a drift; the engine runs real
// requests and joins the timing at the point's end; the point's breakdowns' measured parts are compared with
// the simulator's true times (its ground-truth log, CLOCK_MONOTONIC). Done when (issue 26): every measured
// part within 0.5 ms at the median and 2 ms at p99; remainders do not count. Disaggregated rows check the KV
// transfer the same way.

#include "common/demoscenario.h"
#include "core/run/runcontroller.h"
#include "core/servertiming/clienttimes.h"
#include "core/servertiming/timingfetch.h"
#include "core/sim/simlauncher.h"
#include "core/sim/simprocess.h"
#include "common/wakeprobe.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>

using namespace Throughline;
using nlohmann::json;
using Throughline::TestFixture::kBusyWakeP99Ms;
using Throughline::TestFixture::WakeProbe;

namespace {

struct Truth {
    std::int64_t accept = 0, submit = 0, admitted = 0, firstToken = 0, kvStart = 0, kvEnd = 0, lastToken = 0,
                 firstWrite = 0;
};

std::map<std::string, Truth> readTruth(const QString &path)
{
    std::map<std::string, Truth> m;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return m;
    while (!f.atEnd()) {
        const json j = json::parse(f.readLine().toStdString(), nullptr, false);
        if (j.is_discarded())
            continue;
        Truth t;
        t.accept = j.value("t_accept_ns", std::int64_t(0));
        t.submit = j.value("t_submit_ns", std::int64_t(0));
        t.admitted = j.value("t_admitted_ns", std::int64_t(0));
        t.firstToken = j.value("t_first_token_ns", std::int64_t(0));
        t.kvStart = j.value("t_kv_start_ns", std::int64_t(0));
        t.kvEnd = j.value("t_kv_end_ns", std::int64_t(0));
        t.lastToken = j.value("t_last_token_ns", std::int64_t(0));
        if (j["t_first_token_write_ns"].is_number())
            t.firstWrite = j["t_first_token_write_ns"].get<std::int64_t>();
        m[j["request_id"].get<std::string>()] = t;
    }
    return m;
}

double quantile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double rank = p * double(v.size() - 1);
    const size_t lo = size_t(rank), hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - double(lo));
}

double ms(std::int64_t a, std::int64_t b)
{
    return double(b - a) / 1e6;
}

// The true value of a part, as the format defines it (docs/server-timing.md); NaN = the format does not
// measure it.
double truthOf(BreakdownPart p, TimingFormat f, const Truth &t, std::int64_t clientWire,
               std::int64_t clientFirst)
{
    const bool dyn = f == TimingFormat::DynamoNvext || f == TimingFormat::DynamoTrace;
    switch (p) {
    case BreakdownPart::NetworkUp:
        return ms(clientWire, t.accept);
    case BreakdownPart::ServerFront:
        return ms(t.accept, t.submit);
    case BreakdownPart::ServerQueue:
        return dyn ? ms(t.accept, t.admitted) : ms(t.submit, t.admitted);
    case BreakdownPart::Prefill:
        return f == TimingFormat::Sglang ? ms(t.submit, t.firstToken) : ms(t.admitted, t.firstToken);
    case BreakdownPart::KvTransfer:
        return t.kvEnd > 0 ? ms(t.kvStart, t.kvEnd) : kNoValue;
    case BreakdownPart::Decode:
        return ms(t.kvEnd > 0 ? std::max(t.kvEnd, t.firstToken) : t.firstToken, t.lastToken);
    case BreakdownPart::NetworkDown: // from the first token's write, or its production (Dynamo)
        return ms(dyn ? t.firstToken : t.firstWrite, clientFirst);
    default:
        return kNoValue;
    }
}

const BreakdownPart kServerParts[] = {
    BreakdownPart::NetworkUp,  BreakdownPart::ServerFront, BreakdownPart::ServerQueue, BreakdownPart::Prefill,
    BreakdownPart::KvTransfer, BreakdownPart::Decode,      BreakdownPart::NetworkDown};

} // namespace

class TestServerTimingSim : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void partsMatchGroundTruth_data();
    void partsMatchGroundTruth();

private:
    QTemporaryDir m_dir;
    Scenario m_chat;
};

void TestServerTimingSim::initTestCase()
{
    QVERIFY(m_dir.isValid());
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), TestSupport::errorText(demo));
    m_chat = *demo;
}

void TestServerTimingSim::partsMatchGroundTruth_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<bool>("disaggregated");
    QTest::addColumn<QStringList>("measured"); // parts the format must measure
    const QStringList timed = {u"network_up"_qs, u"network_down"_qs};
    QTest::newRow("llamacpp") << u"llamacpp"_qs << false << QStringList{u"prefill"_qs, u"decode"_qs};
    QTest::newRow("vllm") << u"vllm"_qs << false
                          << QStringList{u"server_queue"_qs, u"prefill"_qs, u"decode"_qs};
    QTest::newRow("sglang") << u"sglang"_qs << false
                            << (QStringList{u"server_front"_qs, u"prefill"_qs, u"decode"_qs} + timed);
    QTest::newRow("dynamo-nvext") << u"dynamo-nvext"_qs << false
                                  << (QStringList{u"server_queue"_qs, u"prefill"_qs, u"decode"_qs} + timed);
    QTest::newRow("dynamo-trace disaggregated")
        << u"dynamo-trace"_qs << true
        << QStringList{u"network_up"_qs, u"server_queue"_qs, u"prefill"_qs, u"kv_transfer"_qs, u"decode"_qs};
    QTest::newRow("trtllm-perf")
        << u"trtllm-perf"_qs << false
        << (QStringList{u"server_front"_qs, u"server_queue"_qs, u"prefill"_qs, u"decode"_qs} + timed);
    QTest::newRow("trtllm-perf disaggregated")
        << u"trtllm-perf"_qs << true
        << (QStringList{u"server_front"_qs, u"server_queue"_qs, u"prefill"_qs, u"kv_transfer"_qs,
                        u"decode"_qs} +
            timed);
}

void TestServerTimingSim::partsMatchGroundTruth()
{
    QFETCH(QString, format);
    QFETCH(bool, disaggregated);
    QFETCH(QStringList, measured);
    const TimingFormatInfo *info = timingFormatByKey(format.toStdString());
    QVERIFY(info);
    const QString tag = QString(format).replace(u' ', u'_') + (disaggregated ? u"_pd"_qs : QString());
    const QString truthPath = m_dir.filePath(tag + u".truth.jsonl");
    const QString tracePath = m_dir.filePath(tag + u".trace.jsonl");

    Scenario s = m_chat;
    s.endpoint.kind = Endpoint::Kind::Simulated;
    s.endpoint.sim.timeScale = 1.0;
    s.endpoint.sim.jitter = 0;
    s.plan.mode = LoadPlan::Mode::Closed;
    s.plan.concurrencies = {12};
    s.plan.requestCount = 96;
    s.plan.warmupRequests = 0;
    s.plan.minWindowS = 0.1;
    s.plan.maxDurationS = 60;
    s.plan.requestTimeoutS = 30;
    s.phase.isl = 256;
    s.phase.osl = 48;
    // The campaign's way: the endpoint names the format, the simulator publishes it on an offset, drifting
    // clock, and the run joins it at the point's end (RunController, core/run/pointtiming).
    s.endpoint.serverTiming.format = format.toStdString();
    s.endpoint.sim.serverClockOffsetMs = -2750.25;
    s.endpoint.sim.serverClockDriftPpm = 180;
    if (info->format == TimingFormat::DynamoTrace)
        s.endpoint.serverTiming.file = tracePath.toStdString();
    if (disaggregated) {
        s.deployment.prefillGpus = 1;
        s.deployment.decodeGpus = 1;
    }

    // The simulator as a child with a ground-truth log; it stays up after the run, so /perf_metrics can be
    // asked again afterwards.
    auto proc = std::make_shared<SimProcess>();
    RunOptions opt;
    opt.scrapeTelemetry = false;
    opt.simLauncher = [&](const Scenario &sc, int streams) -> Result<SimulatedEndpoint> {
        auto args = simulatorArguments(sc, streams);
        args.insert(args.end(), {"--ground-truth", truthPath.toStdString()});
        auto port = proc->start(THROUGHLINE_SIM_EXE, args);
        if (!port)
            return port.error();
        SimulatedEndpoint e;
        e.baseUrl = proc->baseUrl();
        e.timeScale = 1.0;
        e.owner = proc;
        return e;
    };
    RunController rc({s}, opt);
    WakeProbe probe;
    auto out = rc.run();
    const double wakeP99Ms = probe.stopP99Ms();
    QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
    QVERIFY2(!out->scenarios.at(0).aborted, out->scenarios.at(0).abortReason.c_str());
    const PointOutcome &point = out->scenarios[0].points.at(0);
    const std::vector<RequestRecord> &recs = point.records;
    QCOMPARE(int(recs.size()), 96);
    QCOMPARE(point.breakdowns.size(), recs.size());
    if (info->format == TimingFormat::TrtllmPerf) // the point's fetch drained the server's queue
        QCOMPARE(*fetchTimingUrl(proc->baseUrl() + "/perf_metrics"), std::string("[]"));
    proc->stop();

    const ServerTimingSummary &summary = point.result.serverTiming;
    for (const std::string &p : summary.problems)
        qInfo("problem: %s", p.c_str());
    QCOMPARE(summary.format, format.toStdString());
    QCOMPARE(summary.problemCount, 0);
    QCOMPARE(summary.matched, 96);
    QCOMPARE(summary.requests, 96);
    if (info->clock != ServerClock::None) {
        QVERIFY(summary.clockFitted);
        qInfo("clock fit: drift %.1f ppm (true 180), bound ±%.3f ms", summary.clockDriftPpm,
              summary.clockBoundMs);
        QVERIFY2(std::abs(summary.clockDriftPpm - 180) < 120,
                 qPrintable(QString::number(summary.clockDriftPpm)));
    }
    const std::vector<ClientTimes> clients = clientTimesOf(recs, out->runId);
    const auto truth = readTruth(truthPath);
    std::map<BreakdownPart, std::vector<double>> errors;
    for (size_t i = 0; i < recs.size(); ++i) {
        const auto it = truth.find(clients[i].requestId);
        QVERIFY(it != truth.end());
        const RequestBreakdown &b = point.breakdowns[i];
        QCOMPARE(b.seq, recs[i].seq);
        for (BreakdownPart p : kServerParts) {
            const PartValue &v = b[p];
            if (v.status != PartStatus::Measured)
                continue;
            const double t = truthOf(p, info->format, it->second, clients[i].tWire + out->t0SteadyNs,
                                     clients[i].tFirstToken + out->t0SteadyNs);
            QVERIFY2(hasValue(t), breakdownPartKey(p));
            errors[p].push_back(std::abs(v.ms - t));
        }
    }
    for (const QString &key : measured) {
        bool found = false;
        for (BreakdownPart p : kServerParts)
            if (QString::fromLatin1(breakdownPartKey(p)) == key) {
                found = true;
                QVERIFY2(errors[p].size() == recs.size(),
                         qPrintable(key + u" not measured on every request"_qs));
            }
        QVERIFY2(found, qPrintable(key));
    }
    // Every part's error rests on timestamps taken by two processes on this machine (client and simulator):
    // on a busy machine (the probe woke late) a miss in a tail is the machine's, so it is reported, not
    // judged; that every part is measured on every request is asserted either way.
    const bool busy = wakeP99Ms > kBusyWakeP99Ms;
    QStringList unjudged;
    for (const auto &[p, e] : errors) {
        const double med = quantile(e, 0.5), p99 = quantile(e, 0.99);
        qInfo("%-16s %-13s n=%3zu |error| median %.3f ms, p99 %.3f ms, max %.3f ms (wake-up p99 %.3f ms)",
              qPrintable(tag), breakdownPartKey(p), e.size(), med, p99, quantile(e, 1.0), wakeP99Ms);
        const bool within = med <= 0.5 && p99 <= 2.0;
        if (!within && busy) {
            unjudged << QString::fromLatin1(breakdownPartKey(p));
            continue;
        }
        QVERIFY2(within, breakdownPartKey(p));
    }
    if (!unjudged.isEmpty())
        QSKIP(qPrintable(u"every part measured on every request; "_qs + unjudged.join(u", "_qs) +
                         u" not judged: the machine was busy (wake-up p99 %1 ms)"_qs.arg(wakeP99Ms)));
}

QTEST_GUILESS_MAIN(TestServerTimingSim)
#include "tst_servertimingsim.moc"
