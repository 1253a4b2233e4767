// Prometheus text parser: every real exposition in ../shared/data/samples/metrics/, a fixture of edge
// cases with malformed lines (skipped, counted, line numbers), and data-driven single-line cases.

#include "telemetrytestutil.h"

#include "core/telemetry/prometheusparser.h"

#include <QDir>
#include <QTest>

#include <cmath>
#include <map>
#include <set>
#include <string>

using namespace Throughline;
using namespace Throughline::TelemetryTest;

namespace {

// Independent count of sample lines: non-blank lines not starting with '#'.
int countSampleLines(const std::string &text)
{
    return static_cast<int>(TelemetryTest::dataLines(text).size());
}

const PromSample *findSample(const ParsedExposition &p, const std::string &name,
                             const std::map<std::string, std::string> &labels = {})
{
    for (const PromSample &s : p.samples) {
        if (s.name != name)
            continue;
        bool all = true;
        for (const auto &[k, v] : labels) {
            const std::string *got = s.label(k);
            if (!got || *got != v)
                all = false;
        }
        if (all)
            return &s;
    }
    return nullptr;
}

} // namespace

class TestPrometheusParser : public QObject
{
    Q_OBJECT

private slots:
    void realExpositions_data();
    void realExpositions();
    void realValues();
    void histogramsConsistent_data();
    void histogramsConsistent();
    void edgeCaseFixture();
    void malformedLinesInRealFile();
    void singleLine_data();
    void singleLine();
    void values_data();
    void values();
};

void TestPrometheusParser::realExpositions_data()
{
    QTest::addColumn<QString>("file");
    const QStringList files =
        QDir(samplesDir()).entryList({QStringLiteral("*.prom.txt")}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 3,
             "expected the SGLang and llama.cpp expositions in shared/data/samples/metrics");
    for (const QString &f : files)
        QTest::newRow(qPrintable(f)) << samplesDir() + u'/' + f;
}

void TestPrometheusParser::realExpositions()
{
    QFETCH(QString, file);
    const std::string text = readFile(file);
    QVERIFY(!text.empty());
    const ParsedExposition p = PrometheusParser::parse(text);
    QCOMPARE(p.malformedCount(), 0);
    QCOMPARE(static_cast<int>(p.samples.size()), countSampleLines(text));
    QVERIFY(!p.types.empty());
    for (const PromSample &s : p.samples) {
        // Every sample in these files belongs to a family declared with # TYPE and # HELP.
        QVERIFY2(p.types.count(s.family) == 1, s.name.c_str());
        QVERIFY2(p.help.count(s.family) == 1, s.name.c_str());
        QCOMPARE(s.type, p.types.at(s.family));
        QVERIFY2(std::isfinite(s.value), s.name.c_str());
        QVERIFY(s.line > 0);
    }
}

void TestPrometheusParser::realValues()
{
    const ParsedExposition llama =
        PrometheusParser::parse(readFile(samplesDir() + u"/llamacpp_80fb11a_metrics.prom.txt"));
    const PromSample *prompt = findSample(llama, "llamacpp:prompt_tokens_total");
    QVERIFY(prompt);
    QCOMPARE(prompt->value, 49.0);
    QCOMPARE(prompt->type, MetricType::Counter);
    const PromSample *tps = findSample(llama, "llamacpp:predicted_tokens_seconds");
    QVERIFY(tps);
    QCOMPARE(tps->value, 379.614);
    QCOMPARE(tps->type, MetricType::Gauge);
    QCOMPARE(llama.help.at("llamacpp:requests_deferred"), std::string("Number of requests deferred"));

    const ParsedExposition sg = PrometheusParser::parse(
        readFile(samplesDir() + u"/sglang_docs_production_metrics_llama31_8b.prom.txt"));
    const PromSample *gen = findSample(sg, "sglang:generation_tokens_total");
    QVERIFY(gen);
    QCOMPARE(gen->value, 7.557572e+06); // Go's exponent formatting
    QCOMPARE(*gen->label("model_name"), std::string("meta-llama/Llama-3.1-8B-Instruct"));
    const PromSample *inf = findSample(sg, "sglang:time_to_first_token_seconds_bucket", {{"le", "+Inf"}});
    QVERIFY(inf);
    QCOMPARE(inf->family, std::string("sglang:time_to_first_token_seconds"));
    QCOMPARE(inf->type, MetricType::Histogram);
    QCOMPARE(inf->value, 11008.0);
    const PromSample *func =
        findSample(sg, "sglang:func_latency_seconds_count", {{"name", "generate_request"}});
    QVERIFY(func);
    QCOMPARE(func->value, 14007.0);

    const ParsedExposition old = PrometheusParser::parse(
        readFile(samplesDir() + u"/sglang_v0.3_docs_production_metrics_gemma2_9b.prom.txt"));
    const PromSample *maxTok =
        findSample(old, "sglang:max_total_num_tokens", {{"name", "google/gemma-2-9b-it"}});
    QVERIFY(maxTok);
    QCOMPARE(maxTok->value, 161721.0);
    QVERIFY(findSample(old, "sglang:num_requests_waiting"));
    QVERIFY(findSample(old, "sglang:queue_req"));
}

void TestPrometheusParser::histogramsConsistent_data()
{
    realExpositions_data();
}

void TestPrometheusParser::histogramsConsistent()
{
    // For every histogram series: buckets ascend in le, counts never decrease, the +Inf bucket equals _count.
    QFETCH(QString, file);
    const ParsedExposition p = PrometheusParser::parse(readFile(file));
    struct H {
        std::vector<std::pair<double, double>> buckets;
        double count = -1;
    };
    std::map<std::string, H> hists;
    int histogramSamples = 0;
    for (const PromSample &s : p.samples) {
        if (s.type != MetricType::Histogram)
            continue;
        ++histogramSamples;
        std::string key = s.family;
        for (const auto &[k, v] : s.labels)
            if (k != "le")
                key += "|" + k + "=" + v;
        if (s.name == s.family + "_bucket") {
            double le = 0;
            QVERIFY(PrometheusParser::parseValue(*s.label("le"), le));
            hists[key].buckets.emplace_back(le, s.value);
        } else if (s.name == s.family + "_count") {
            hists[key].count = s.value;
        }
    }
    if (histogramSamples == 0)
        QSKIP("no histograms in this exposition");
    for (const auto &[key, h] : hists) {
        QVERIFY2(h.count >= 0, key.c_str());
        if (h.buckets.empty())
            continue; // the v0.3 doc excerpt lists _sum/_count only for some families
        for (std::size_t i = 1; i < h.buckets.size(); ++i) {
            QVERIFY2(h.buckets[i].first > h.buckets[i - 1].first, key.c_str());
            QVERIFY2(h.buckets[i].second >= h.buckets[i - 1].second, key.c_str());
        }
        QVERIFY2(std::isinf(h.buckets.back().first), key.c_str());
        QCOMPARE(h.buckets.back().second, h.count);
    }
}

void TestPrometheusParser::edgeCaseFixture()
{
    const std::string text =
        readFile(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/telemetry/edge_cases.prom.txt"));
    QVERIFY(!text.empty());
    const ParsedExposition p = PrometheusParser::parse(text);
    QCOMPARE(p.lineCount, 26);

    std::vector<int> badLines;
    for (const ParseIssue &i : p.issues)
        badLines.push_back(i.line);
    QCOMPARE(badLines, (std::vector<int>{10, 16, 17, 22, 23, 24, 25}));
    QCOMPARE(static_cast<int>(p.samples.size()), 14);
    QVERIFY(p.issues[0].excerpt.find("this line is not a sample") != std::string::npos);

    QCOMPARE(p.help.at("esc_metric"), std::string("A help with a backslash \\ and a newline \n inside."));
    const PromSample *esc = findSample(p, "esc_metric");
    QVERIFY(esc);
    QCOMPARE(*esc->label("path"), std::string("C:\\dir\\file"));
    QCOMPARE(*esc->label("quote"), std::string("say \"hi\""));
    QCOMPARE(*esc->label("nl"), std::string("a\nb"));

    const PromSample *inf = findSample(p, "lat_seconds_bucket", {{"le", "+Inf"}});
    QVERIFY(inf);
    QCOMPARE(inf->family, std::string("lat_seconds"));
    QCOMPARE(inf->type, MetricType::Histogram);
    QCOMPARE(findSample(p, "lat_seconds_sum")->family, std::string("lat_seconds"));

    const PromSample *q99 = findSample(p, "rpc_seconds", {{"quantile", "0.99"}});
    QVERIFY(q99 && std::isnan(q99->value));
    QCOMPARE(q99->type, MetricType::Summary);
    QCOMPARE(findSample(p, "rpc_seconds_sum")->value, 15.0);
    QCOMPARE(findSample(p, "rpc_seconds_count")->type, MetricType::Summary);

    const PromSample *ts = findSample(p, "temp_with_ts");
    QVERIFY(ts && std::isinf(ts->value) && ts->value < 0);
    QCOMPARE(ts->timestampMs.value_or(0), std::int64_t(1700000000123));

    const PromSample *spaced = findSample(p, "spaced_metric");
    QVERIFY(spaced && std::isinf(spaced->value) && spaced->value > 0);
    QCOMPARE(*spaced->label("a"), std::string("x"));

    const PromSample *withExemplar = findSample(p, "http_requests_total", {{"code", "200"}});
    QVERIFY(withExemplar);
    QCOMPARE(withExemplar->value, 1027.0);
    QCOMPARE(withExemplar->family, std::string("http_requests")); // OpenMetrics counter family
    QCOMPARE(withExemplar->type, MetricType::Counter);

    const PromSample *crlf = findSample(p, "crlf_metric");
    QVERIFY(crlf);
    QCOMPARE(crlf->value, 42.0);
    QCOMPARE(crlf->line, 26);
}

void TestPrometheusParser::malformedLinesInRealFile()
{
    // Corrupt a real exposition at known places: the damaged lines are reported with their numbers and every
    // other sample still parses.
    std::string text = readFile(samplesDir() + u"/llamacpp_80fb11a_metrics.prom.txt");
    QVERIFY(!text.empty());
    const int cleanSamples = static_cast<int>(PrometheusParser::parse(text).samples.size());
    std::vector<std::string> lines = splitLines(text);
    // Lines 3 and 9 are samples (prompt_tokens_total, prompt_seconds_total); damage them, insert one garbage
    // line.
    QVERIFY(lines[2].rfind("llamacpp:prompt_tokens_total ", 0) == 0);
    lines[2] = "llamacpp:prompt_tokens_total{model=\"x} 49";
    QVERIFY(lines[8].rfind("llamacpp:prompt_seconds_total ", 0) == 0);
    lines[8] = "llamacpp:prompt_seconds_total zero";
    lines.insert(lines.begin() + 20, "<html>502 Bad Gateway</html>");
    std::string damaged;
    for (const std::string &l : lines)
        damaged += l + "\n";
    const ParsedExposition p = PrometheusParser::parse(damaged);
    QCOMPARE(p.malformedCount(), 3);
    QCOMPARE(p.issues[0].line, 3);
    QCOMPARE(p.issues[1].line, 9);
    QCOMPARE(p.issues[2].line, 21);
    QCOMPARE(static_cast<int>(p.samples.size()), cleanSamples - 2);
    QVERIFY(findSample(p, "llamacpp:tokens_predicted_total"));
}

void TestPrometheusParser::singleLine_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<double>("value");
    QTest::addColumn<QByteArray>("labelKey");
    QTest::addColumn<QByteArray>("labelValue");

    QTest::newRow("plain") << QByteArray("up 1") << true << QByteArray("up") << 1.0 << QByteArray()
                           << QByteArray();
    QTest::newRow("colon name") << QByteArray("vllm:num_requests_running{model_name=\"m\"} 3") << true
                                << QByteArray("vllm:num_requests_running") << 3.0 << QByteArray("model_name")
                                << QByteArray("m");
    QTest::newRow("empty labels") << QByteArray("a{} 2") << true << QByteArray("a") << 2.0 << QByteArray()
                                  << QByteArray();
    QTest::newRow("trailing comma") << QByteArray("a{b=\"c\",} 2") << true << QByteArray("a") << 2.0
                                    << QByteArray("b") << QByteArray("c");
    QTest::newRow("escaped backslash at end") << QByteArray("a{b=\"c\\\\\"} 2") << true << QByteArray("a")
                                              << 2.0 << QByteArray("b") << QByteArray("c\\");
    QTest::newRow("comma in value") << QByteArray("a{b=\"x,y}\"} 2") << true << QByteArray("a") << 2.0
                                    << QByteArray("b") << QByteArray("x,y}");
    QTest::newRow("utf8 value") << QByteArray("a{b=\"Größe\"} 2") << true << QByteArray("a") << 2.0
                                << QByteArray("b") << QByteArray("Größe");
    QTest::newRow("exponent") << QByteArray("a 1.5e-3") << true << QByteArray("a") << 0.0015 << QByteArray()
                              << QByteArray();
    QTest::newRow("negative") << QByteArray("a -7") << true << QByteArray("a") << -7.0 << QByteArray()
                              << QByteArray();
    QTest::newRow("tab separated") << QByteArray("a\t5") << true << QByteArray("a") << 5.0 << QByteArray()
                                   << QByteArray();
    QTest::newRow("timestamp float seconds")
        << QByteArray("a 5 1700000000.25") << true << QByteArray("a") << 5.0 << QByteArray() << QByteArray();
    QTest::newRow("no value") << QByteArray("a") << false << QByteArray() << 0.0 << QByteArray()
                              << QByteArray();
    QTest::newRow("label without quotes")
        << QByteArray("a{b=c} 1") << false << QByteArray() << 0.0 << QByteArray() << QByteArray();
    QTest::newRow("duplicate label") << QByteArray("a{b=\"1\",b=\"2\"} 1") << false << QByteArray() << 0.0
                                     << QByteArray() << QByteArray();
    QTest::newRow("bad label name") << QByteArray("a{1b=\"1\"} 1") << false << QByteArray() << 0.0
                                    << QByteArray() << QByteArray();
    QTest::newRow("missing close brace")
        << QByteArray("a{b=\"1\" 1") << false << QByteArray() << 0.0 << QByteArray() << QByteArray();
    QTest::newRow("dash in name") << QByteArray("a-b 1") << false << QByteArray() << 0.0 << QByteArray()
                                  << QByteArray();
    QTest::newRow("hex value") << QByteArray("a 0x1p3") << false << QByteArray() << 0.0 << QByteArray()
                               << QByteArray();
    QTest::newRow("double sign") << QByteArray("a +-1") << false << QByteArray() << 0.0 << QByteArray()
                                 << QByteArray();
    QTest::newRow("bad timestamp") << QByteArray("a 1 yesterday") << false << QByteArray() << 0.0
                                   << QByteArray() << QByteArray();
}

void TestPrometheusParser::singleLine()
{
    QFETCH(QByteArray, line);
    QFETCH(bool, ok);
    QFETCH(QByteArray, name);
    QFETCH(double, value);
    QFETCH(QByteArray, labelKey);
    QFETCH(QByteArray, labelValue);
    const ParsedExposition p =
        PrometheusParser::parse(std::string_view(line.constData(), static_cast<std::size_t>(line.size())));
    if (!ok) {
        QCOMPARE(static_cast<int>(p.samples.size()), 0);
        QCOMPARE(p.malformedCount(), 1);
        QCOMPARE(p.issues[0].line, 1);
        QVERIFY(!p.issues[0].reason.empty());
        return;
    }
    QCOMPARE(p.malformedCount(), 0);
    QCOMPARE(static_cast<int>(p.samples.size()), 1);
    QCOMPARE(QByteArray::fromStdString(p.samples[0].name), name);
    QCOMPARE(p.samples[0].value, value);
    if (!labelKey.isEmpty()) {
        const std::string *v = p.samples[0].label(labelKey.toStdString());
        QVERIFY(v);
        QCOMPARE(QByteArray::fromStdString(*v), labelValue);
    }
}

void TestPrometheusParser::values_data()
{
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<double>("value");
    const double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("+Inf") << QByteArray("+Inf") << true << inf;
    QTest::newRow("-Inf") << QByteArray("-Inf") << true << -inf;
    QTest::newRow("Inf") << QByteArray("Inf") << true << inf;
    QTest::newRow("int") << QByteArray("12") << true << 12.0;
    QTest::newRow("e+06") << QByteArray("8.128902e+06") << true << 8128902.0;
    QTest::newRow("leading plus") << QByteArray("+3.5") << true << 3.5;
    QTest::newRow("empty") << QByteArray("") << false << 0.0;
    QTest::newRow("word") << QByteArray("abc") << false << 0.0;
    QTest::newRow("trailing junk") << QByteArray("1.0x") << false << 0.0;
}

void TestPrometheusParser::values()
{
    QFETCH(QByteArray, token);
    QFETCH(bool, ok);
    QFETCH(double, value);
    double got = 0;
    QCOMPARE(PrometheusParser::parseValue(
                 std::string_view(token.constData(), static_cast<std::size_t>(token.size())), got),
             ok);
    if (ok)
        QCOMPARE(got, value);
    double nan = 0;
    QVERIFY(PrometheusParser::parseValue("NaN", nan));
    QVERIFY(std::isnan(nan));
}

QTEST_GUILESS_MAIN(TestPrometheusParser)
#include "tst_prometheusparser.moc"
